#if canImport(Glibc)
import Glibc
#endif
import Ripple

// The "dynamic" graphs of the public suite, with its sfc32 / xmur3a generator.

/// xmur3a, the string hash that seeds sfc32.
struct XMur3a {
    private var h: UInt32

    init(_ string: String) {
        h = 2_166_136_261
        var length: UInt32 = 0
        for unit in string.utf16 {
            var k = UInt32(unit) &* 3_432_918_353
            k = (k << 15) | (k >> 17)
            h ^= k &* 461_845_907
            h = (h << 13) | (h >> 19)
            h = h &* 5 &+ 3_864_292_196
            length &+= 1
        }
        h ^= length
    }

    mutating func next() -> UInt32 {
        h ^= h >> 16
        h = h &* 2_246_822_507
        h ^= h >> 13
        h = h &* 3_266_489_909
        h ^= h >> 16
        return h
    }
}

/// sfc32, outputs in [0, 1).
struct SFC32 {
    private var a, b, c, d: UInt32

    /// The suite's `pseudoRandom()`: sfc32 seeded with four outputs of xmur3a("seed").
    init(seed: String = "seed") {
        var hash = XMur3a(seed)
        a = hash.next(); b = hash.next(); c = hash.next(); d = hash.next()
    }

    mutating func next() -> Double {
        var t = a &+ b
        a = b ^ (b >> 9)
        b = c &+ (c << 3)
        c = (c << 21) | (c >> 11)
        d = d &+ 1
        t = t &+ d
        c = c &+ t
        return Double(t) / 4_294_967_296
    }
}

/// JavaScript's ToInt32, for `v & 1`.
@inline(__always)
func toInt32(_ v: Double) -> Int32 {
    guard v.isFinite else { return 0 }
    return Int32(truncatingIfNeeded: Int64(fmod(v.rounded(.towardZero), 4_294_967_296)))
}

struct DynamicConfig: Sendable {
    let name: String
    let width: Int
    let layers: Int
    let staticFraction: Double
    let sources: Int
    let readFraction: Double
    let iterations: Int
    let expectedSum: Double
    let expectedCount: Int

    static let all: [DynamicConfig] = [
        .init(
            name: "simple component", width: 10, layers: 5, staticFraction: 1, sources: 2, readFraction: 0.2,
            iterations: 600_000, expectedSum: 19_199_968, expectedCount: 3_480_000),
        .init(
            name: "dynamic component", width: 10, layers: 10, staticFraction: 0.75, sources: 6, readFraction: 0.2,
            iterations: 15_000, expectedSum: 302_310_782_860, expectedCount: 1_155_000),
        .init(
            name: "large web app", width: 1000, layers: 12, staticFraction: 0.95, sources: 4, readFraction: 1,
            iterations: 7_000, expectedSum: 29_355_933_696_000, expectedCount: 1_463_000),
        .init(
            name: "wide dense", width: 1000, layers: 5, staticFraction: 1, sources: 25, readFraction: 1,
            iterations: 3_000, expectedSum: 1_171_484_375_000, expectedCount: 732_000),
        .init(
            name: "deep (dynamic)", width: 5, layers: 500, staticFraction: 1, sources: 3, readFraction: 1,
            iterations: 500, expectedSum: 3.0239642676898464e241, expectedCount: 1_246_500),
        .init(
            name: "very dynamic", width: 100, layers: 15, staticFraction: 0.5, sources: 6, readFraction: 1,
            iterations: 2_000, expectedSum: 15_664_996_402_790_400, expectedCount: 1_078_000),
    ]

    /// The shape of the graph: for each computed row, each node's source indices in the row
    /// below and whether it is static. Drawn with one generator, one draw per node, row by row.
    func shape() -> [[(sources: [Int], isStatic: Bool)]] {
        var random = SFC32()
        var rows: [[(sources: [Int], isStatic: Bool)]] = []
        for _ in 0..<(layers - 1) {
            var row: [(sources: [Int], isStatic: Bool)] = []
            for j in 0..<width {
                let sourceIndices = (0..<sources).map { (j + $0) % width }
                row.append((sourceIndices, random.next() < staticFraction))
            }
            rows.append(row)
        }
        return rows
    }

    /// Indices into the last row of the leaves that are read.
    func leafIndices() -> [Int] {
        var random = SFC32()
        var remaining = Array(0..<width)
        let skip = Int((Double(width) * (1 - readFraction)).rounded())
        for _ in 0..<skip {
            let index = Int((random.next() * Double(remaining.count)).rounded(.down))
            remaining.remove(at: index)
        }
        return remaining
    }
}

/// The derivation of a node from its sources' values, read in order through `read`.
@inline(__always)
func dynamicValue(isStatic: Bool, count: Int, _ read: (Int) -> Double) -> Double {
    if isStatic {
        var sum = 0.0
        for i in 0..<count { sum += read(i) }
        return sum
    }
    let first = read(0)
    var sum = first
    let drop = toInt32(first) & 1 != 0
    let dropIndex = fmod(first, Double(count - 1))
    for i in 1..<count {
        if drop && Double(i - 1) == dropIndex { continue }
        sum += read(i)
    }
    return sum
}

enum Dynamic {
    /// Build once, warm up, then time runs with the counter reset; asserts sum and count.
    static func measure(
        _ config_: DynamicConfig, _ name: String, run: () -> Double, counter: () -> Int, reset: () -> Void
    ) -> Outcome {
        do {
            let warmupStart = now()
            for _ in 0..<config.dynamicWarmups {
                _ = run()
                if Double(now() - warmupStart) / 1e9 > config.dynamicWarmupBudget { break }
            }
            let stats = try sample(
                maximum: config.dynamicRuns, minimum: config.minimumSamples, budget: config.fastBudget
            ) {
                reset()
                var sum = 0.0
                let elapsed = timed { sum = run() }
                let count = counter()
                try expect(sum == config_.expectedSum, name, "sum == \(sum), expected \(config_.expectedSum)")
                try expect(
                    count == config_.expectedCount, name, "evaluations == \(count), expected \(config_.expectedCount)")
                return elapsed
            }
            return .measured(stats)
        } catch {
            return .failed("\(error)")
        }
    }

    // MARK: Ripple

    /// A node of the row below: a source or a computed value.
    enum Node: Sendable {
        case stored(Stored<Double>)
        case computed(Computed<Double>)

        var value: Double {
            @inline(__always) get {
                switch self {
                case .stored(let s): s.value
                case .computed(let c): c.value
                }
            }
        }
    }

    static func ripple(_ graph: DynamicConfig) -> Outcome {
        let name = "\(graph.name) (Ripple)"
        let counter = Counter()
        let sources = (0..<graph.width).map { Stored(Double($0)) }
        var previous = sources.map { Node.stored($0) }
        var rows: [[Computed<Double>]] = []
        for shapeRow in graph.shape() {
            let row = shapeRow.map { shape -> Computed<Double> in
                let inputs = shape.sources.map { previous[$0] }
                let isStatic = shape.isStatic
                return Computed {
                    counter.n += 1
                    return dynamicValue(isStatic: isStatic, count: inputs.count) { inputs[$0].value }
                }
            }
            rows.append(row)
            previous = row.map { Node.computed($0) }
        }
        let leaves = graph.leafIndices().map { rows[rows.count - 1][$0] }
        let reaction = observe { for leaf in leaves { _ = leaf.value } }
        let width = graph.width
        let iterations = graph.iterations
        let outcome = measure(
            graph, name,
            run: {
                for i in 0..<iterations {
                    batch {
                        let k = i % width
                        sources[k].value = Double(i + k)
                    }
                    for leaf in leaves { _ = leaf.value }
                }
                return leaves.reduce(0.0) { total, leaf in leaf.value + total }
            }, counter: { counter.n }, reset: { counter.n = 0 })
        withExtendedLifetime((sources, rows, reaction)) {}
        return outcome
    }

    // MARK: floor

    /// The same graph as flat arrays: a write marks the potential readers stale (push), a read
    /// brings a node up to date by checking the versions of the sources it read last (pull) and
    /// re-evaluates only if one of them changed. Ripple's algorithm, without locks, objects,
    /// reference counting or closures.
    final class Flat {
        let width: Int
        let sourceCount: Int
        var value: [Double]
        var version: [Int]
        var stale: [Bool]
        var hasValue: [Bool]
        var isStatic: [Bool]
        /// All possible sources of computed node n: sources[n * sourceCount + s].
        var sources: [Int]
        /// The sources read by the last evaluation, and the versions seen.
        var deps: [Int]
        var depVersions: [Int]
        var depCount: [Int]
        /// Readers that may read each node (compressed rows).
        var observerStart: [Int]
        var observers: [Int]
        var isLeaf: [Bool]
        var leaves: [Int]
        var effectStale = false
        var evaluations = 0
        var stack: [Int] = []

        init(_ graph: DynamicConfig) {
            width = graph.width
            sourceCount = graph.sources
            let n = graph.width * graph.layers
            value = [Double](repeating: 0, count: n)
            version = [Int](repeating: 0, count: n)
            stale = [Bool](repeating: false, count: n)
            hasValue = [Bool](repeating: false, count: n)
            isStatic = [Bool](repeating: true, count: n)
            sources = [Int](repeating: 0, count: n * graph.sources)
            deps = [Int](repeating: 0, count: n * graph.sources)
            depVersions = [Int](repeating: 0, count: n * graph.sources)
            depCount = [Int](repeating: 0, count: n)
            var readers = [[Int]](repeating: [], count: n)
            for i in 0..<width { value[i] = Double(i); hasValue[i] = true }
            for (r, row) in graph.shape().enumerated() {
                for (j, shape) in row.enumerated() {
                    let node = (r + 1) * width + j
                    isStatic[node] = shape.isStatic
                    for (s, index) in shape.sources.enumerated() {
                        let source = r * width + index
                        sources[node * sourceCount + s] = source
                        readers[source].append(node)
                    }
                }
            }
            observerStart = [0]
            observers = []
            for list in readers { observers += list; observerStart.append(observers.count) }
            isLeaf = [Bool](repeating: false, count: n)
            let lastRow = (graph.layers - 1) * width
            leaves = graph.leafIndices().map { lastRow + $0 }
            for leaf in leaves { isLeaf[leaf] = true }
            runEffect()
        }

        func runEffect() {
            effectStale = false
            for leaf in leaves { refresh(leaf) }
        }

        func write(_ node: Int, _ newValue: Double) {
            if value[node] == newValue { return }
            value[node] = newValue
            version[node] &+= 1
            stack.append(node)
            while let current = stack.popLast() {
                for index in observerStart[current]..<observerStart[current + 1] {
                    let reader = observers[index]
                    if stale[reader] { continue }
                    stale[reader] = true
                    if isLeaf[reader] { effectStale = true }
                    stack.append(reader)
                }
            }
        }

        func refresh(_ node: Int) {
            if node < width { return }
            if hasValue[node] && !stale[node] { return }
            if hasValue[node] {
                let base = node * sourceCount
                var changed = false
                for k in 0..<depCount[node] {
                    let dep = deps[base + k]
                    refresh(dep)
                    if version[dep] != depVersions[base + k] { changed = true; break }
                }
                if !changed { stale[node] = false; return }
            }
            evaluate(node)
        }

        func read(_ node: Int, into reader: Int) -> Double {
            refresh(node)
            let slot = reader * sourceCount + depCount[reader]
            deps[slot] = node
            depVersions[slot] = version[node]
            depCount[reader] += 1
            return value[node]
        }

        func evaluate(_ node: Int) {
            evaluations += 1
            depCount[node] = 0
            let base = node * sourceCount
            let next = dynamicValue(isStatic: isStatic[node], count: sourceCount) {
                read(sources[base + $0], into: node)
            }
            if !hasValue[node] || next != value[node] {
                value[node] = next
                version[node] &+= 1
            }
            hasValue[node] = true
            stale[node] = false
        }
    }

    static func floor(_ graph: DynamicConfig) -> Outcome {
        let name = "\(graph.name) (floor)"
        let flat = Flat(graph)
        let width = graph.width
        let iterations = graph.iterations
        return measure(
            graph, name,
            run: {
                for i in 0..<iterations {
                    let k = i % width
                    flat.write(k, Double(i + k))
                    if flat.effectStale { flat.runEffect() }
                    for leaf in flat.leaves { flat.refresh(leaf) }
                }
                return flat.leaves.reduce(0.0) { total, leaf in flat.value[leaf] + total }
            }, counter: { flat.evaluations }, reset: { flat.evaluations = 0 })
    }
}
