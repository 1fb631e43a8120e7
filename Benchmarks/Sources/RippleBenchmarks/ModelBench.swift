import Observation
import Ripple
import RippleModels

// The model rows: a main-actor model's property (RippleModels' `@Observed`, DidUpdate's
// `@ObservedValue`) read, written, and written with one reaction reading it, next to the same
// property of an Observation `@Observable` class in the same run, the model Swift itself
// ships. A main-actor model is what an Xcode 26 app target declares by default.
//
// The Observation column with a reader makes its `withObservationTracking` registration again
// after each change, at once (Observation tells a registration of one change only): its worst
// case, since SwiftUI makes it again at its next body evaluation, after changes have gathered.
//
// Every row asserts what it read or the final value, and the reader's count, in quick mode too.
// Each column runs once untimed before it is timed.

/// A main-actor RippleModels model.
@MainActor
final class BenchModel: ObservableModel {
    @Observed var count = 0
}

/// The same model on Observation.
@MainActor
@Observable
final class BenchObservable {
    var count = 0
}

/// An `onChange` flag, set from Observation's callback (which is `@Sendable`).
final class BenchFlag: @unchecked Sendable {
    var isSet = false
}

enum ModelBench {
    static var isSelected: Bool {
        guard let filter = config.filter else { return true }
        return "models".localizedCaseInsensitiveContains(filter) || filter.localizedCaseInsensitiveContains("model")
    }

    typealias Line = SectionReport.Line
    typealias Report = SectionReport

    /// Printed above the section's rows.
    static let header =
        "Models: ns per operation on a main-actor model's property, median (min); \"Ripple Nx\" = Ripple's median ÷ Observation's (above 1: Ripple is slower)."

    /// Operations per sample.
    static let operations = 100_000

    /// Nanoseconds per operation: `body` runs `operations` of them per sample.
    static func perOperation(_ body: () -> Void) -> Stats {
        var stats = sample(maximum: config.quick ? 3 : 15, minimum: 3, budget: config.quick ? 0.3 : 2) {
            timed(body)
        }
        stats.samples = stats.samples.map { $0 * 1e6 / Double(operations) }
        return stats
    }

    static func cell(_ name: String, _ stats: Stats) -> String {
        "\(name) \(format(stats.median)) ns (min \(format(stats.min)))"
    }

    /// Measures on the main thread (the benchmarks run on another one), as the main-actor
    /// reducer rows do.
    static func measure() -> Report {
        ReducerBench.onMainActor { measureOnMainActor() }
    }

    @MainActor
    static func measureOnMainActor() -> Report {
        var report = Report(section: "models", header: header)
        let n = operations

        // 1. Reads outside any reaction (a view's code reading its model). Each column runs once
        // untimed first, so that neither is timed cold.
        let model = BenchModel()
        let observable = BenchObservable()
        model.count = 1
        observable.count = 1
        var rippleTotal = 0
        var observationTotal = 0
        for _ in 0..<n { rippleTotal &+= model.count }
        for _ in 0..<n { observationTotal &+= observable.count }
        let rippleRead = perOperation { for _ in 0..<n { rippleTotal &+= model.count } }
        let observationRead = perOperation { for _ in 0..<n { observationTotal &+= observable.count } }
        report.check(
            rippleTotal == (1 + rippleRead.samples.count) * n
                && observationTotal == (1 + observationRead.samples.count) * n,
            "the reads summed \(rippleTotal) and \(observationTotal)")
        report.lines.append(
            Line(
                name: "read a property",
                value: cell("Ripple", rippleRead) + " | " + cell("Observation", observationRead)
                    + " | Ripple \(format(rippleRead.median / observationRead.median))x"))

        // 2. Writes, nobody reading.
        for i in 0..<n { model.count = i }
        for i in 0..<n { observable.count = i }
        let rippleWrite = perOperation { for i in 0..<n { model.count = i } }
        let observationWrite = perOperation { for i in 0..<n { observable.count = i } }
        report.check(model.count == n - 1 && observable.count == n - 1, "the writes left \(model.count), \(observable.count)")
        report.lines.append(
            Line(
                name: "write a property, no reader",
                value: cell("Ripple", rippleWrite) + " | " + cell("Observation", observationWrite)
                    + " | Ripple \(format(rippleWrite.median / observationWrite.median))x"))

        // 3. `+= 1` with one reader told of each change. Observation's registration is made
        // again after each change, at once: its worst case (SwiftUI makes it again at its next
        // body evaluation, after changes have gathered).
        model.count = 0
        observable.count = 0
        var runs = 0
        let reaction = observeOnMainActor {
            _ = model.count
            runs += 1
        }
        let rippleBump = perOperation { for _ in 0..<n { model.count += 1 } }
        let observedRuns = runs
        reaction.cancel()
        let rippleFinal = model.count
        let flag = BenchFlag()
        var observationRuns = 0
        func register() {
            withObservationTracking { _ = observable.count } onChange: { flag.isSet = true }
        }
        register()
        let observationBump = perOperation {
            for _ in 0..<n {
                observable.count += 1
                if flag.isSet {
                    flag.isSet = false
                    observationRuns += 1
                    register()
                }
            }
        }
        report.check(
            observedRuns == 1 + rippleBump.samples.count * n && rippleFinal == rippleBump.samples.count * n,
            "the reaction ran \(observedRuns) times for \(rippleBump.samples.count * n) writes, leaving \(rippleFinal)")
        report.check(
            observationRuns == observationBump.samples.count * n
                && observable.count == observationBump.samples.count * n,
            "Observation told \(observationRuns) changes of \(observationBump.samples.count * n), leaving \(observable.count)")
        report.lines.append(
            Line(
                name: "+= 1, one reader re-run",
                value: cell("Ripple", rippleBump) + " | " + cell("Observation, re-registered", observationBump)
                    + " | Ripple \(format(rippleBump.median / observationBump.median))x"))
        return report
    }
}
