import Foundation
import Ripple

// Ripple's benchmark suite: the graphs of /work/shared/benchmarks/SPEC.md (the public
// js-reactivity-benchmark suite) in Ripple, by hand (the floor), on Observation and on
// OpenCombine, printed as one table. See README.md.

/// One row of the table.
struct Benchmark {
    let name: String
    /// The best alien-signals median in SPEC.md (ms per sample).
    let alien: Double
    let columns: [Column: () -> Outcome]
}

func kairo(
    _ name: String, _ alien: Double,
    ripple: @escaping () -> KairoGraph, floor: @escaping () -> KairoGraph,
    observation: @escaping () -> KairoGraph, combine: @escaping () -> KairoGraph
) -> Benchmark {
    Benchmark(
        name: name, alien: alien,
        columns: [
            .ripple: { runKairo(name, .ripple, ripple) },
            .floor: { runKairo(name, .floor, floor) },
            .observation: { runKairo(name, .observation, observation) },
            .combine: { runKairo(name, .combine, combine) },
        ])
}

let dynamicAlien: [String: Double] = [
    "simple component": 211.1, "dynamic component": 152.0, "large web app": 358.8,
    "wide dense": 510.9, "deep (dynamic)": 120.9, "very dynamic": 218.8,
]

nonisolated(unsafe) let benchmarks: [Benchmark] =
    [
        kairo(
            "deep", 34.1, ripple: KairoRipple.deep, floor: KairoFloor.deep,
            observation: KairoObservation.deep, combine: KairoCombine.deep),
        kairo(
            "broad", 110.5, ripple: KairoRipple.broad, floor: KairoFloor.broad,
            observation: KairoObservation.broad, combine: KairoCombine.broad),
        kairo(
            "diamond", 54.6, ripple: KairoRipple.diamond, floor: KairoFloor.diamond,
            observation: KairoObservation.diamond, combine: KairoCombine.diamond),
        kairo(
            "triangle", 23.3, ripple: KairoRipple.triangle, floor: KairoFloor.triangle,
            observation: KairoObservation.triangle, combine: KairoCombine.triangle),
        kairo(
            "repeated", 7.5, ripple: KairoRipple.repeated, floor: KairoFloor.repeated,
            observation: KairoObservation.repeated, combine: KairoCombine.repeated),
        kairo(
            "unstable", 15.8, ripple: KairoRipple.unstable, floor: KairoFloor.unstable,
            observation: KairoObservation.unstable, combine: KairoCombine.unstable),
        kairo(
            "avoidable", 43.7, ripple: KairoRipple.avoidable, floor: KairoFloor.avoidable,
            observation: KairoObservation.avoidable, combine: KairoCombine.avoidable),
        kairo(
            "mux", 104.3, ripple: KairoRipple.mux, floor: KairoFloor.mux,
            observation: KairoObservation.mux, combine: KairoCombine.mux),
        Benchmark(
            name: "molBench", alien: 19.1,
            columns: [
                .ripple: MolBench.ripple,
                .floor: MolBench.floor,
                .observation: { .notApplicable("needs lazy E") },
                .combine: { .notApplicable("needs lazy E") },
            ]),
        Benchmark(
            name: "cellx 1000", alien: 8.4,
            columns: [
                .ripple: { Cellx.ripple(1000) }, .floor: { Cellx.floor(1000) },
                .observation: { Cellx.observation(1000) }, .combine: { Cellx.combine(1000) },
            ]),
        Benchmark(
            name: "cellx 2500", alien: 49.0,
            columns: [
                .ripple: { Cellx.ripple(2500) }, .floor: { Cellx.floor(2500) },
                .observation: { Cellx.observation(2500) }, .combine: { Cellx.combine(2500) },
            ]),
    ]
    + DynamicConfig.all.map { graph in
        Benchmark(
            name: graph.name, alien: dynamicAlien[graph.name] ?? .nan,
            columns: [
                .ripple: { Dynamic.ripple(graph) },
                .floor: { Dynamic.floor(graph) },
                .observation: { .notApplicable("") },
                .combine: { .notApplicable("") },
            ])
    }

// MARK: Formatting

func format(_ value: Double) -> String {
    if value.isNaN { return "-" }
    if value >= 100 { return String(format: "%.0f", value) }
    if value >= 10 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
}

func ratio(_ value: Double, _ base: Double?) -> String {
    guard let base, base > 0, !value.isNaN else { return "" }
    let r = value / base
    return r >= 10 ? String(format: "%.0fx", r) : String(format: "%.2fx", r)
}

func cell(_ outcome: Outcome, base: Double?) -> String {
    switch outcome {
    case .measured(let stats):
        let text = "\(format(stats.median)) (\(format(stats.min)))"
        let r = ratio(stats.median, base)
        return r.isEmpty ? text : "\(text) \(r)"
    case .failed: return "ASSERT FAILED"
    case .notApplicable(let why): return why.isEmpty ? "n/a" : "n/a: \(why)"
    case .skipped: return "skipped"
    }
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    if count >= width { return text }
    let padding = String(repeating: " ", count: width - count)
    return right ? padding + text : text + padding
}

// MARK: Running

func log(_ message: String) {
    FileHandle.standardError.write((message + "\n").data(using: .utf8)!)
}

func runAll() {
    let started = now()
    var rows: [(name: String, cells: [String], failures: [String])] = []
    var failures: [String] = []
    // --filter: an exact benchmark name, or else any name containing the text.
    let exact = benchmarks.contains { $0.name == config.filter }
    for benchmark in benchmarks {
        if let filter = config.filter {
            if exact ? benchmark.name != filter : !benchmark.name.localizedCaseInsensitiveContains(filter) { continue }
        }
        var outcomes: [Column: Outcome] = [:]
        for column in Column.allCases {
            guard let run = benchmark.columns[column] else { continue }
            if let columns = config.columns, !columns.contains(column.title.lowercased()) { continue }
            let t0 = now()
            let outcome = run()
            outcomes[column] = outcome
            if case .failed(let message) = outcome {
                print("ASSERT FAILED: \(message)")
                failures.append(message)
            }
            log(
                "  \(benchmark.name) / \(column.title): \(cell(outcome, base: nil))  [\(format(Double(now() - t0) / 1e9)) s]"
            )
        }
        var base: Double?
        if case .measured(let stats)? = outcomes[.ripple] { base = stats.median }
        var cells: [String] = []
        for column in Column.allCases {
            let outcome = outcomes[column] ?? .skipped
            cells.append(cell(outcome, base: column == .ripple ? nil : base))
        }
        // A quick run's samples are smaller than the spec's: no ratio to the JavaScript numbers.
        let alienText =
            config.quick ? format(benchmark.alien) : "\(format(benchmark.alien)) \(ratio(benchmark.alien, base))"
        cells.append(alienText)
        rows.append((benchmark.name, cells, []))
    }

    // With a tracer installed (--tracer), only the core table: the other sections write whole
    // store states, and formatting 100 000 entities per commit is what a tracer then costs.
    let sectionsSelected = !config.tracer
    let measuresMemory = sectionsSelected && (config.filter == nil || config.filter == "memory")
    var memory = Memory.Report()
    var costs = Memory.Costs()
    if measuresMemory {
        log("measuring bytes per node and write costs…")
        memory = Memory.measure()
        costs = Memory.costs()
    }
    let measuresScale = sectionsSelected && (config.filter == nil || config.filter == "scale")
    var scaleRows: [Scale.Row] = []
    if measuresScale {
        scaleRows = Scale.measure()
        for row in scaleRows {
            if let failure = row.failure {
                print("ASSERT FAILED: \(failure)")
                failures.append(failure)
            }
        }
    }
    // The store rows (issue 10): with no filter, or a filter that names one ("store" names all).
    var storeRows: [StoreBench.Row] = []
    if sectionsSelected, StoreBench.isSelected {
        storeRows = StoreBench.measure()
        for failure in storeRows.flatMap(\.failures) {
            print("ASSERT FAILED: \(failure)")
            failures.append(failure)
        }
    }
    // The reducer rows (issue 11): with no filter, or a filter that names one ("reducer" names all).
    var reducerRows: [ReducerBench.Row] = []
    if sectionsSelected, ReducerBench.isSelected {
        reducerRows = ReducerBench.measure()
        for failure in reducerRows.flatMap(\.failures) {
            print("ASSERT FAILED: \(failure)")
            failures.append(failure)
        }
    }
    // The sections printed as lines: measured when selected (and no tracer is installed), each
    // failed assert reported now and counted.
    func measureSection(_ isSelected: Bool, _ what: String, _ measure: () -> SectionReport) -> SectionReport? {
        guard sectionsSelected, isSelected else { return nil }
        log("measuring \(what)…")
        let report = measure()
        for failure in report.failures {
            print("ASSERT FAILED: \(failure)")
            failures.append(failure)
        }
        return report
    }
    // The entity rows (issue 12): with no filter, or --filter entities.
    let entityReport = measureSection(EntityBench.isSelected, "entities", EntityBench.measure)
    // The bindings rows (issue 13): with no filter, or --filter bindings.
    let bindingsReport = measureSection(BindingsBench.isSelected, "bindings", BindingsBench.measure)
    // The model rows: with no filter, or --filter models.
    let modelReport = measureSection(ModelBench.isSelected, "models", ModelBench.measure)
    // The event rows: with no filter, or --filter events.
    let eventReport = measureSection(EventBench.isSelected, "events", EventBench.measure)
    // The async and failing derivation rows (issue 39): with no filter, or --filter async.
    let asyncReport = measureSection(AsyncBench.isSelected, "async and failing derivations", AsyncBench.measure)
    let total = Double(now() - started) / 1e9

    // MARK: The table
    let headers = ["benchmark"] + Column.allCases.map { $0.title } + ["alien-signals"]
    var widths = headers.map { $0.count }
    for row in rows {
        widths[0] = max(widths[0], row.name.count)
        for (i, text) in row.cells.enumerated() { widths[i + 1] = max(widths[i + 1], text.count) }
    }
    let mode =
        config.quick
        ? "QUICK run (--quick): kairo samples of \(config.kairoRepeat) × iter(), ≤\(config.samples) samples; cellx \(config.cellxBuilds) builds per sample; dynamic \(config.dynamicWarmups) warm-up + \(config.dynamicRuns) run. Not comparable with the JS numbers."
        : "Full run: kairo samples of 500 × iter() after 3 warm-up iter(), Ripple/floor ≤10 samples (≤\(Int(config.fastBudget)) s), Observation/OpenCombine samples of 100 × iter() scaled × 5, ≤10 samples within \(Int(config.slowBudget)) s (at least \(config.minimumSamples)); molBench 10 000 iter() per sample; cellx: sum of 10 builds+updates per sample, \(config.cellxSamples) samples; dynamic: \(config.dynamicWarmups) warm-up runs (fewer, at least 1, past \(Int(config.dynamicWarmupBudget)) s), then ≤\(config.dynamicRuns) timed runs (≤\(Int(config.fastBudget)) s, at least \(config.minimumSamples))."
    print("")
    if !rows.isEmpty {
        print("Ripple benchmarks: median (min) ms per sample; ratio = column ÷ Ripple median (lower is faster).")
        print(mode)
        print("alien-signals: the best median of alien-signals 3.1.2 / 3.2.1 in SPEC.md (node 20, same machine class).")
        print("")
        let line = zip(headers, widths).map { pad($0, $1) }.joined(separator: " | ")
        print(line)
        print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-"))
        for row in rows {
            let texts = [row.name] + row.cells
            print(zip(texts, widths).map { pad($0, $1) }.joined(separator: " | "))
        }
        print("")
    }
    if measuresMemory {
        print("Bytes per node (glibc mallinfo2 uordblks, \(Memory.nodeCount) nodes kept alive):")
        print("  Stored<Int>:                                   \(format(memory.stored))")
        print("  Computed<Int>, never read:                     \(format(memory.computedUnread))")
        print(
            "  Computed<Int>, read once at top level:         \(format(memory.computedRead))  (outside any Observation scope: nothing armed)"
        )
        print(
            "  Computed<Int>, read once in an Observation scope: \(format(memory.computedReadObserved))  (inside withObservationTracking: with its watcher and subject)"
        )
        print("  Computed<Int>, read once inside a derivation:  \(format(memory.computedReadTracked))")
        print(
            "  observe reaction reading one Stored:           \(format(memory.reaction))  (including its Subscription and the source's observer edge)"
        )
        print(
            "  store derived value + one sinkValue:           \(format(memory.storeDerivedWithSink))  (store.derived(from: \\.values[i]) { $0 * 2 }, its key-path slice included)"
        )
        print(
            "  store key-path reader (observe):               \(format(memory.storeKeyPathReader))  (observe { store.state.values[i] }: the reaction and the slice)"
        )
        print(
            "  store closure selector + one sinkValue:        \(format(memory.storeSelectWithSink))  (store.select { $0.values[i] * 2 }, its node and selection included)"
        )
        print("Release time (one source, \(Memory.nodeCount) readers, released first-created first):")
        print("  \(Memory.nodeCount) Computed<Int> read at top level:       \(format(memory.releaseComputedsMs)) ms")
        print("  \(Memory.nodeCount) observe reactions (Subscriptions):     \(format(memory.releaseReactionsMs)) ms")
        print("Costs, median ns per operation:")
        print("  write to a Stored<Int>, no observers:          \(format(costs.writeNoObserver))")
        print("  batch { write }, no observers:                 \(format(costs.batchWriteNoObserver))")
        print(
            "  write to a Stored<Int> with one observe:       \(format(costs.writeOneReaction))  (includes the reaction's run)"
        )
        print(
            "  top-level read + write:                        \(format(costs.readWriteArmed))  (outside any Observation scope)"
        )
        print("  write to a Stored<Int> read once at top level: \(format(costs.writeStoredReadOnce))")
        print("  write under a Computed read once at top level: \(format(costs.writeUnderComputedReadOnce))")
        print(
            "  write to a Stored<Int> read once in a scope:   \(format(costs.writeStoredObserved))  (read inside withObservationTracking: armed)"
        )
        print(
            "  write under a Computed read once in a scope:   \(format(costs.writeUnderComputedObserved))  (read inside withObservationTracking: armed)"
        )
        print("  top-level read of a Stored<Int>:               \(format(costs.readStoredTopLevel))")
        print("  top-level read of an up-to-date Computed<Int>: \(format(costs.readComputedTopLevel))")
        print("  tracked read inside a reaction (≈, 100/run):   \(format(costs.readInsideReaction))")
    }
    if measuresScale {
        printScale(scaleRows)
    }
    if !storeRows.isEmpty {
        print("")
        printStore(storeRows)
    }
    if !reducerRows.isEmpty {
        print("")
        printReducer(reducerRows)
    }
    for report in [entityReport, bindingsReport, modelReport, eventReport, asyncReport].compactMap({ $0 }) {
        print("")
        report.printLines()
    }
    print("")
    if failures.isEmpty {
        print("All asserts passed.")
    } else {
        print("\(failures.count) benchmark(s) failed an assert:")
        for failure in failures { print("  ASSERT FAILED: \(failure)") }
    }
    if config.tracer { print("Tracer installed (--tracer): \(countingTracer.events) events recorded.") }
    print("Total time: \(format(total)) s")
    // A failed assert is a Ripple bug: make CI notice.
    if !failures.isEmpty { exit(1) }
}

/// The scale section: one line per row, the median ms of each phase and the peak memory.
func printScale(_ rows: [Scale.Row]) {
    let runs = config.quick ? "1 run" : "median of 3 runs"
    print(
        "Scale (each run in a child process of its own; \(runs); ms per phase; peak = the child's peak resident memory (Linux: VmHWM) above its peak before the row started, MiB, after building / overall):"
    )
    let headers = ["row", "N"] + Scale.phaseNames + ["peak MiB"]
    var lines: [[String]] = []
    for row in rows {
        var cells = [row.scenario.title, String(row.scenario.count)]
        if row.failure != nil {
            cells += Scale.phaseNames.map { _ in "" } + ["ASSERT FAILED"]
        } else {
            cells += Scale.phaseNames.map { row.milliseconds[$0].map(format) ?? "-" }
            cells.append("\(format(row.peakAfterBuildMiB)) / \(format(row.peakMiB))")
        }
        lines.append(cells)
    }
    var widths = headers.map { $0.count }
    for line in lines { for (i, text) in line.enumerated() { widths[i] = max(widths[i], text.count) } }
    print("  " + zip(headers, widths).map { pad($0, $1) }.joined(separator: " | "))
    for line in lines {
        print(
            "  "
                + zip(line, widths).enumerated().map { i, pair in pad(pair.0, pair.1, right: i > 0) }.joined(
                    separator: " | "))
    }
}

config = Config.parse(CommandLine.arguments)

/// Counts the events it receives, and nothing else: the cost of tracing itself.
final class CountingTracer: GraphTracer, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func record(_ event: TraceEvent) {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var events: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
let countingTracer = CountingTracer()
let installedTracer: Subscription? = config.tracer ? installTracer(countingTracer) : nil

// A scale child (see `Scale`) runs its one scenario, prints its line and exits. It runs on a
// thread with an ordinary 8 MiB stack, so that a graph whose first read nests deeper than that
// allows fails here. (Apple platforms nest that read on the reading thread's stack: there the
// child gets the suite's large stack.)
if let child = config.scaleChild {
    let finished = DispatchSemaphore(value: 0)
    let worker = Thread {
        Scale.runChild(child.name, count: child.count)
        finished.signal()
    }
    #if canImport(Darwin)
    worker.stackSize = 1 << 29
    #else
    worker.stackSize = 8 << 20
    #endif
    worker.start()
    finished.wait()
    exit(0)
}

// Deep graphs (cellx 2500, the 500-layer dynamic graph, Combine chains) recurse deeply when
// they are built, updated or released: run everything on a thread with a large stack. The main
// thread runs its run loop meanwhile, which serves the main queue, so that the ViewStore rows
// run main-actor code (and their effects' main-actor jobs) on the main thread. (Not
// `dispatchMain()`: it ends the main thread, and a `DispatchQueue.main.sync` block then runs on
// the calling thread.) The suite's thread ends the process.
let thread = Thread {
    runAll()
    exit(0)
}
thread.stackSize = 1 << 29
thread.start()
while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
