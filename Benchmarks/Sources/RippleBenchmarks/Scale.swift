#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Ripple

// Scale rows: graphs of a million nodes, each built, read, written and released in a child
// process of its own, so that its peak memory (a high-water mark that never goes down within a
// process) is its own. The parent runs each child a few times and reports the median of each
// phase.

enum Scale {
    /// One row: a graph shape and its size.
    struct Scenario: Sendable {
        let name: String
        let title: String
        let count: Int
        /// Builds the graph, then runs its phases; returns the phases' nanoseconds by name.
        let run: @Sendable (Int, inout Phases) throws -> Void
    }

    /// The phases of one run, in order, with the peak resident memory after each.
    struct Phases {
        private(set) var names: [String] = []
        private(set) var nanoseconds: [UInt64] = []
        private(set) var peakKiB: [Int] = []

        /// Times `body` as the phase `name` and records the peak memory once it is done.
        mutating func measure(_ name: String, _ body: () throws -> Void) rethrows {
            let start = now()
            try body()
            nanoseconds.append(now() - start)
            names.append(name)
            peakKiB.append(Scale.peakResidentKiB())
        }
    }

    /// The process's peak resident memory so far, in KiB.
    ///
    /// On Linux, the `VmHWM` line of /proc/self/status: getrusage's `ru_maxrss` survives `exec`
    /// (a child starts with its parent's peak when it was started), `VmHWM` belongs to the
    /// process's own memory. Elsewhere, getrusage's `ru_maxrss`.
    static func peakResidentKiB() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kiB = Int(line.split(separator: " ").dropFirst().first ?? "")
        {
            return kiB
        }
        return 0
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #endif
    }

    /// The phases every row reports, in order ("first read" only for the chain).
    static let phaseNames = ["build", "first read", "write", "release"]

    static var scenarios: [Scenario] {
        let million = config.quick ? 100_000 : 1_000_000
        return [
            Scenario(name: "chain", title: "chain of Computed, read at top level", count: million, run: chain),
            Scenario(name: "fan-out", title: "observe reactions on one Stored", count: million, run: fanOut),
            Scenario(name: "fan-in", title: "Stored values, one observe each", count: million, run: oneObserverEach),
            Scenario(
                name: "many-sources", title: "observe reading 9 Stored, freed shuffled",
                count: config.quick ? 20_000 : 200_000, run: manySources),
        ]
    }

    // MARK: The graphs (run in the child)

    /// `count` computed values, each its predecessor plus one, never evaluated until the first
    /// read of the last one (a top-level read: it also links the chain to Ripple's Observation
    /// watcher, so the write then pushes through every node and the watcher's check
    /// re-evaluates them all). Release drops every handle.
    static func chain(_ count: Int, _ phases: inout Phases) throws {
        let name = "scale chain"
        let head = Stored(0)
        var chain: [Computed<Int>] = []
        try phases.measure("build") {
            chain.reserveCapacity(count)
            chain.append(Computed { head.value + 1 })
            for _ in 1..<count {
                let previous = chain[chain.count - 1]
                chain.append(Computed { previous.value + 1 })
            }
            try expect(chain.count == count, name, "built \(chain.count) nodes")
        }
        try phases.measure("first read") {
            let value = chain[count - 1].value
            try expect(value == count, name, "first read \(value), expected \(count)")
        }
        try phases.measure("write") {
            head.value = 1
            let value = chain[count - 1].value
            try expect(value == count + 1, name, "read after the write \(value), expected \(count + 1)")
        }
        phases.measure("release") { chain = [] }
        withExtendedLifetime(head) {}
    }

    /// `count` reactions reading one stored value: built (each runs once), one write (each runs
    /// again), released in creation order.
    static func fanOut(_ count: Int, _ phases: inout Phases) throws {
        let name = "scale fan-out"
        let source = Stored(0)
        let runs = Counter()
        var subscriptions: [Subscription] = []
        try phases.measure("build") {
            subscriptions.reserveCapacity(count)
            for _ in 0..<count {
                subscriptions.append(
                    observe {
                        _ = source.value; runs.n += 1
                    })
            }
            try expect(runs.n == count, name, "\(runs.n) first runs, expected \(count)")
        }
        try phases.measure("write") {
            source.value = 1
            try expect(runs.n == 2 * count, name, "\(runs.n) runs after the write, expected \(2 * count)")
        }
        phases.measure("release") { subscriptions = [] }
    }

    /// `count` stored values with one reaction each: built, each written once, released.
    static func oneObserverEach(_ count: Int, _ phases: inout Phases) throws {
        let name = "scale fan-in"
        let runs = Counter()
        var sources: [Stored<Int>] = []
        var subscriptions: [Subscription] = []
        try phases.measure("build") {
            sources.reserveCapacity(count)
            subscriptions.reserveCapacity(count)
            for index in 0..<count {
                let source = Stored(index)
                sources.append(source)
                subscriptions.append(
                    observe {
                        _ = source.value; runs.n += 1
                    })
            }
            try expect(runs.n == count, name, "\(runs.n) first runs, expected \(count)")
        }
        try phases.measure("write") {
            for (index, source) in sources.enumerated() { source.value = index + 1 }
            try expect(runs.n == 2 * count, name, "\(runs.n) runs after the writes, expected \(2 * count)")
        }
        phases.measure("release") {
            subscriptions = []
            sources = []
        }
    }

    /// `count` reactions each reading the same 9 stored values: built, one write, released in
    /// a shuffled (seeded) order. Unlinking an observer of more than 8 sources once scanned the
    /// source's observer list (quadratic: 200 000 took 12 s).
    static func manySources(_ count: Int, _ phases: inout Phases) throws {
        let name = "scale many-sources"
        let sources = (0..<9).map { Stored($0) }
        let runs = Counter()
        var subscriptions: [Subscription?] = []
        try phases.measure("build") {
            subscriptions.reserveCapacity(count)
            for _ in 0..<count {
                subscriptions.append(
                    observe {
                        for source in sources { _ = source.value }
                        runs.n += 1
                    })
            }
            try expect(runs.n == count, name, "\(runs.n) first runs, expected \(count)")
        }
        try phases.measure("write") {
            sources[0].value = -1
            try expect(runs.n == 2 * count, name, "\(runs.n) runs after the write, expected \(2 * count)")
        }
        var order = Array(0..<count)
        var generator = SplitMix64(seed: 9)
        order.shuffle(using: &generator)
        phases.measure("release") {
            for index in order { subscriptions[index] = nil }
        }
    }

    // MARK: Child and parent

    /// The child: runs one scenario and prints one line the parent parses:
    /// `SCALE <phase>=<ns>/<peak KiB> …` (peaks above the child's peak before it started), or
    /// `ASSERT FAILED: …` and exits 1.
    static func runChild(_ name: String, count: Int) {
        guard let scenario = scenarios.first(where: { $0.name == name }) else {
            print("ASSERT FAILED: unknown scale scenario \(name)")
            exit(1)
        }
        let baseline = peakResidentKiB()
        var phases = Phases()
        do {
            try scenario.run(count, &phases)
        } catch {
            print("ASSERT FAILED: \(error)")
            exit(1)
        }
        let fields = phases.names.indices.map { index in
            let name = phases.names[index].replacingOccurrences(of: " ", with: "_")
            return "\(name)=\(phases.nanoseconds[index])/\(phases.peakKiB[index] - baseline)"
        }
        print("SCALE " + fields.joined(separator: " "))
    }

    /// A row of the report: the median of each phase over the runs, and the median peaks.
    struct Row {
        let scenario: Scenario
        var failure: String?
        /// Median milliseconds per phase name.
        var milliseconds: [String: Double] = [:]
        /// Median peak MiB above the child's start: after building, and overall.
        var peakAfterBuildMiB = Double.nan
        var peakMiB = Double.nan
    }

    /// Runs each scenario `runs` times in a child process and takes the medians.
    static func measure() -> [Row] {
        let runs = config.quick ? 1 : 3
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var rows: [Row] = []
        for scenario in scenarios {
            log("scale: \(scenario.name) × \(scenario.count), \(runs) run(s)…")
            var row = Row(scenario: scenario)
            var times: [String: [Double]] = [:]
            var buildPeaks: [Double] = []
            var peaks: [Double] = []
            for _ in 0..<runs {
                switch runChild(executable, scenario) {
                case .failure(let message):
                    row.failure = message
                case .success(let fields):
                    for (phase, nanoseconds, _) in fields {
                        times[phase, default: []].append(Double(nanoseconds) / 1e6)
                    }
                    buildPeaks.append(Double(fields.first { $0.0 == "build" }?.2 ?? 0) / 1024)
                    peaks.append(Double(fields.map { $0.2 }.max() ?? 0) / 1024)
                }
                if row.failure != nil { break }
            }
            if row.failure == nil {
                for (phase, samples) in times { row.milliseconds[phase] = Stats(samples: samples).median }
                row.peakAfterBuildMiB = Stats(samples: buildPeaks).median
                row.peakMiB = Stats(samples: peaks).median
            }
            rows.append(row)
        }
        return rows
    }

    private enum ChildResult {
        case success([(String, UInt64, Int)])
        case failure(String)
    }

    private static func runChild(_ executable: URL, _ scenario: Scenario) -> ChildResult {
        let process = Process()
        process.executableURL = executable
        process.arguments =
            ["--scale-child", scenario.name, String(scenario.count)] + (config.quick ? ["--quick"] : [])
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return .failure("scale \(scenario.name): could not start a child process: \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if let failed = text.split(separator: "\n").first(where: { $0.hasPrefix("ASSERT FAILED: ") }) {
            return .failure(String(failed.dropFirst("ASSERT FAILED: ".count)))
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SCALE ") })
        else {
            let how = process.terminationReason == .uncaughtSignal ? "signal" : "status"
            return .failure(
                "scale \(scenario.name) × \(scenario.count): the child process ended with \(how) \(process.terminationStatus)"
            )
        }
        var fields: [(String, UInt64, Int)] = []
        for field in line.dropFirst("SCALE ".count).split(separator: " ") {
            let parts = field.split(separator: "=")
            let values = parts.count == 2 ? parts[1].split(separator: "/") : []
            guard values.count == 2, let nanoseconds = UInt64(values[0]), let peak = Int(values[1]) else {
                return .failure("scale \(scenario.name): unreadable child output \(line)")
            }
            fields.append((parts[0].replacingOccurrences(of: "_", with: " "), nanoseconds, peak))
        }
        return .success(fields)
    }
}

/// A small seeded generator (SplitMix64), so the shuffled release order is the same every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
