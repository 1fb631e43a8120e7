#if canImport(Glibc)
import Glibc
#endif
import CMallocInfo
import Dispatch

// A small benchmark harness: monotonic clock, samples, median and minimum, and asserts that
// report a failure without stopping the other benchmarks.

/// Run settings, from the command line.
struct Config: Sendable {
    /// `--quick`: fewer samples and repetitions (every assert still runs).
    var quick = false
    /// `--strict`: a failed assert stops the program (`preconditionFailure`) instead of being reported.
    var strict = false
    /// `--tracer`: a process-wide tracer that counts the events is installed for the whole run
    /// (issue 15: what tracing costs, next to a run without it).
    var tracer = false
    /// `--filter TEXT`: run only the benchmarks whose name contains TEXT (and the memory and
    /// write-cost section only if TEXT is "memory", the scale section only if it is "scale").
    var filter: String?
    /// `--columns ripple,floor,…`: run only these columns.
    var columns: Set<String>?
    /// `--scale-child NAME COUNT` (internal): run one scale scenario in this process and print
    /// its phases for the parent (see `Scale`).
    var scaleChild: (name: String, count: Int)?

    /// `iter()` calls per kairo sample (the spec: 500).
    var kairoRepeat: Int { quick ? 50 : 500 }
    /// Samples for Ripple and the floor (the public suite: 10).
    var samples: Int { quick ? 3 : 10 }
    /// Time budget, in seconds, for the samples of one slow column (Observation, OpenCombine):
    /// sampling stops once it is spent and `minimumSamples` are taken.
    var slowBudget: Double { quick ? 0.5 : 3.0 }
    /// Time budget, in seconds, for the samples of one fast column (Ripple, floor).
    var fastBudget: Double { quick ? 1.0 : 5.0 }
    /// Dynamic graphs: warm-up runs stop early (after at least one) once this many seconds are
    /// spent. Runs after the first are identical, so one warm-up suffices for the asserts.
    var dynamicWarmupBudget: Double { quick ? 0 : 3.0 }
    var minimumSamples: Int { quick ? 1 : 3 }
    /// cellx: builds+updates summed in one sample (the spec: 10), and samples of that sum.
    var cellxBuilds: Int { quick ? 2 : 10 }
    var cellxSamples: Int { quick ? 1 : 5 }
    /// Dynamic graphs: warm-up runs (the spec: 3) and timed runs (the public suite: 5).
    var dynamicWarmups: Int { quick ? 1 : 3 }
    var dynamicRuns: Int { quick ? 1 : 5 }

    static func parse(_ arguments: [String]) -> Config {
        var config = Config()
        var index = 1
        while index < arguments.count {
            switch arguments[index] {
            case "--quick": config.quick = true
            case "--strict": config.strict = true
            case "--tracer": config.tracer = true
            case "--filter":
                index += 1
                if index < arguments.count { config.filter = arguments[index] }
            case "--columns":
                index += 1
                if index < arguments.count {
                    config.columns = Set(arguments[index].lowercased().split(separator: ",").map(String.init))
                }
            case "--scale-child":
                guard index + 2 < arguments.count, let count = Int(arguments[index + 2]) else {
                    print("--scale-child needs a scenario name and a count")
                    exit(2)
                }
                config.scaleChild = (arguments[index + 1], count)
                index += 2
            case "-h", "--help":
                print(
                    "usage: RippleBenchmarks [--quick] [--strict] [--tracer] [--filter TEXT] [--columns ripple,floor,observation,opencombine,locked,verge,reducerstore,viewstore,commit]"
                )
                exit(0)
            default:
                print("unknown argument \(arguments[index]); try --help")
                exit(2)
            }
            index += 1
        }
        return config
    }
}

nonisolated(unsafe) var config = Config()

/// A failed assert of one benchmark implementation.
struct AssertFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Checks a benchmark assert. A failure is thrown (and reported by the caller), or stops the
/// program under `--strict`.
@inline(__always)
func expect(_ condition: Bool, _ benchmark: @autoclosure () -> String, _ detail: @autoclosure () -> String) throws {
    if !condition {
        let message = "\(benchmark()): \(detail())"
        if config.strict { preconditionFailure("ASSERT FAILED: " + message) }
        throw AssertFailure(message: message)
    }
}

/// A shared counter for closures that must be `@Sendable` (the benchmarks are single-threaded).
final class Counter: @unchecked Sendable {
    var n = 0
}

/// Nanoseconds on a monotonic clock.
@inline(__always)
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {}

/// kairo's busy().
@inline(__always)
func busy() { _ = bench_busy() }

/// A section printed as lines (entities, bindings, models, events, async): each row a name and
/// what was measured, the section's header above them, and the asserts that failed, each
/// named by the section ("models: …").
struct SectionReport: Sendable {
    struct Line: Sendable {
        let name: String
        let value: String
    }

    /// The section's name, put before each failure.
    let section: String
    /// The line printed above the rows.
    let header: String
    var lines: [Line] = []
    var failures: [String] = []

    init(section: String, header: String) {
        self.section = section
        self.header = header
    }

    mutating func add(_ name: String, _ value: String) { lines.append(Line(name: name, value: value)) }

    mutating func check(_ condition: Bool, _ message: String) {
        if !condition { failures.append("\(section): \(message)") }
    }

    /// Prints the header, then each row as "name | value", the names padded to one width.
    func printLines() {
        print(header)
        let width = lines.map(\.name.count).max() ?? 0
        for line in lines {
            print("  \(pad(line.name, width)) | \(line.value)")
        }
    }
}

/// Median and minimum of the samples, in milliseconds.
struct Stats {
    var samples: [Double]
    var median: Double {
        let sorted = samples.sorted()
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
    var min: Double { samples.min() ?? .nan }
}

/// The outcome of one column of one benchmark.
enum Outcome {
    case measured(Stats)
    case failed(String)
    case notApplicable(String)
    case skipped
}

/// Takes up to `maximum` samples of `body` (each returns its own measured nanoseconds), stopping
/// early when `budget` seconds are spent and at least `minimum` samples are taken.
func sample(maximum: Int, minimum: Int, budget: Double, _ body: () throws -> UInt64) rethrows -> Stats {
    var samples: [Double] = []
    let start = now()
    for _ in 0..<maximum {
        samples.append(Double(try body()) / 1e6)
        let spent = Double(now() - start) / 1e9
        if samples.count >= minimum && spent > budget { break }
    }
    return Stats(samples: samples)
}

/// Times one call of `body`, in nanoseconds.
@inline(__always)
func timed(_ body: () throws -> Void) rethrows -> UInt64 {
    let start = now()
    try body()
    return now() - start
}

/// A built kairo graph: `iter()` with the spec's asserts, and what must stay alive.
struct KairoGraph {
    let iter: () throws -> Void
    let keepAlive: [Any]
}

/// The implementations compared in each row of the table.
enum Column: Int, CaseIterable {
    case ripple, floor, observation, combine

    var title: String {
        switch self {
        case .ripple: "Ripple"
        case .floor: "floor"
        case .observation: "Observation"
        case .combine: "OpenCombine"
        }
    }

    /// Fast columns get the full sample count; slow ones a time budget.
    var isSlow: Bool { self == .observation || self == .combine }
}

/// Observation and OpenCombine kairo samples time 500 / 5 = 100 × iter(), scaled × 5.
let slowDivisor = 5

/// Runs a kairo benchmark for one column: build once, warm up 3 × iter(), then samples of
/// `config.kairoRepeat` × iter().
func runKairo(_ name: String, _ column: Column, _ build: () -> KairoGraph) -> Outcome {
    let graph = build()
    defer { withExtendedLifetime(graph.keepAlive) {} }
    do {
        for _ in 0..<3 { try graph.iter() }
        // Slow columns time a fifth of the iterations and are scaled to the full sample.
        let repeatCount = column.isSlow ? config.kairoRepeat / slowDivisor : config.kairoRepeat
        let scale = UInt64(config.kairoRepeat / repeatCount)
        let stats = try sample(
            maximum: config.samples,
            minimum: config.minimumSamples,
            budget: column.isSlow ? config.slowBudget : config.fastBudget
        ) {
            try timed { for _ in 0..<repeatCount { try graph.iter() } } * scale
        }
        return .measured(stats)
    } catch {
        return .failed("\(error)")
    }
}
