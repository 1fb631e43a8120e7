import Ripple

// The event rows: cancelling every subscription of one `Event` (a store's activity
// subscribers are events), at 1 000, 10 000 and 40 000 subscriptions, in subscription order,
// in reverse and shuffled. A cancellation is amortized O(1), so the time per cancel stays
// flat as the count grows (it was O(n), a search and a shift of the list under the graph's
// lock: 20 000 cancels took about 5 s).
//
// Every row asserts that the event has no subscriber left, in quick mode too.

enum EventBench {
    static var isSelected: Bool {
        guard let filter = config.filter else { return true }
        return "events".localizedCaseInsensitiveContains(filter)
    }

    typealias Line = SectionReport.Line
    typealias Report = SectionReport

    /// Printed above the section's rows.
    static let header =
        "Events: ns per cancel of one of n subscriptions to an Event, median (min); O(1) per cancel, so \"40k ÷ 1k\" stays near 1 (it was about 40 when a cancel was O(n))."

    enum Order: String, CaseIterable {
        case subscription = "in subscription order"
        case reverse = "in reverse"
        case shuffled
    }

    static let counts = [1_000, 10_000, 40_000]

    /// Nanoseconds per cancel: the median (and minimum) over the samples, each cancelling
    /// every one of `count` subscriptions in `order` (the subscribing is not timed).
    static func cancel(count: Int, order: Order, report: inout Report) -> Stats {
        var generator = SplitMix64(seed: UInt64(count))
        var stats = sample(maximum: config.quick ? 3 : 11, minimum: 3, budget: config.quick ? 0.5 : 3) {
            let event = Event<Int>()
            var subscriptions = (0..<count).map { _ in event.subscribe { blackHole($0) } }
            switch order {
            case .subscription: break
            case .reverse: subscriptions.reverse()
            case .shuffled: subscriptions.shuffle(using: &generator)
            }
            let elapsed = timed {
                for subscription in subscriptions { subscription.cancel() }
            }
            report.check(
                event.subscriberCount == 0,
                "\(event.subscriberCount) subscribers left after cancelling \(count) \(order.rawValue)")
            return elapsed
        }
        stats.samples = stats.samples.map { $0 * 1e6 / Double(count) }
        return stats
    }

    static func measure() -> Report {
        var report = Report(section: "events", header: header)
        for order in Order.allCases {
            let perCount = counts.map { cancel(count: $0, order: order, report: &report) }
            let cells = zip(counts, perCount).map { count, stats in
                "\(count / 1_000)k: \(format(stats.median)) ns (min \(format(stats.min)))"
            }
            let growth = perCount.last!.median / perCount.first!.median
            report.lines.append(
                Line(
                    name: "cancel n subscriptions \(order.rawValue)",
                    value: cells.joined(separator: " | ") + " | 40k ÷ 1k \(format(growth))x"
                ))
        }
        return report
    }
}
