import OpenCombine

// The kairo graphs on OpenCombine: CurrentValueSubject heads, map / combineLatest, sink reactions.
// Combine pushes every value synchronously with no caching and no glitch handling: a node fed by
// two paths emits once per path, so reaction counts are not asserted (values are). An equal write
// is not sent. `removeDuplicates()` stands in for equality cut-off where the spec depends on it
// (avoidable, mux).

enum KairoCombine {
    typealias Subject = CurrentValueSubject<Int, Never>

    @inline(__always)
    static func write(_ subject: Subject, _ value: Int) {
        if subject.value != value { subject.send(value) }
    }

    /// The last value a sink received, and how many it received.
    final class Sink {
        var value = 0
        var count = 0
    }

    static func deep() -> KairoGraph {
        let name = "deep (OpenCombine)"
        let head = Subject(0)
        var current = head.eraseToAnyPublisher()
        for _ in 0..<50 { current = current.map { $0 + 1 }.eraseToAnyPublisher() }
        let out = Sink()
        let cancellable = current.sink {
            out.value = $0; out.count += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                out.count = 0
                for i in 0..<50 {
                    write(head, i)
                    try expect(out.value == 50 + i, name, "c50 == \(out.value) after write \(i)")
                }
                try expect(out.count == 50, name, "reaction ran \(out.count) times, expected 50")
            }, keepAlive: [head, cancellable])
    }

    static func broad() -> KairoGraph {
        let name = "broad (OpenCombine)"
        let head = Subject(0)
        let counter = Counter()
        let last = Sink()
        var cancellables: [AnyCancellable] = []
        for i in 0..<50 {
            let out = i == 49 ? last : Sink()
            cancellables.append(
                head.map { $0 + i }.map { $0 + 1 }.sink {
                    out.value = $0; counter.n += 1
                })
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                counter.n = 0
                for i in 0..<50 {
                    write(head, i)
                    try expect(last.value == i + 50, name, "b49 == \(last.value) after write \(i)")
                }
                try expect(counter.n == 2500, name, "reactions ran \(counter.n) times, expected 2500")
            }, keepAlive: [head, cancellables])
    }

    static func diamond() -> KairoGraph {
        let name = "diamond (OpenCombine)"
        let head = Subject(0)
        let branches = (0..<5).map { _ in head.map { $0 + 1 } }
        let sum = CombineLatestMany(branches) { values in
            var total = 0
            for value in values { total += value }
            return total
        }
        let out = Sink()
        let cancellable = sum.sink {
            out.value = $0; out.count += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                try expect(out.value == 10, name, "sum == \(out.value) after write 1")
                for i in 0..<500 {
                    write(head, i)
                    try expect(out.value == (i + 1) * 5, name, "sum == \(out.value) after write \(i)")
                }
            }, keepAlive: [head, cancellable])
    }

    static func triangle() -> KairoGraph {
        let name = "triangle (OpenCombine)"
        let head = Subject(0)
        var list: [AnyPublisher<Int, Never>] = [head.eraseToAnyPublisher()]
        for _ in 0..<10 { list.append(list[list.count - 1].map { $0 + 1 }.eraseToAnyPublisher()) }
        // list = [head, c1…c9]; c10 is built but never subscribed.
        let sum = CombineLatestMany(Array(list[0..<10])) { values in
            var total = 0
            for value in values { total += value }
            return total
        }
        let out = Sink()
        let cancellable = sum.sink {
            out.value = $0; out.count += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                try expect(out.value == 55, name, "sum == \(out.value) after write 1")
                for i in 0..<100 {
                    write(head, i)
                    try expect(out.value == 10 * i + 45, name, "sum == \(out.value) after write \(i)")
                }
            }, keepAlive: [head, cancellable])
    }

    static func repeated() -> KairoGraph {
        let name = "repeated (OpenCombine)"
        let head = Subject(0)
        let out = Sink()
        let cancellable = head.map { value in
            var total = 0
            for _ in 0..<30 { total += value }
            return total
        }.sink {
            out.value = $0; out.count += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                try expect(out.value == 30, name, "c == \(out.value) after write 1")
                out.count = 0
                for i in 0..<100 {
                    write(head, i)
                    try expect(out.value == 30 * i, name, "c == \(out.value) after write \(i)")
                }
                try expect(out.count == 100, name, "reaction ran \(out.count) times, expected 100")
            }, keepAlive: [head, cancellable])
    }

    static func unstable() -> KairoGraph {
        let name = "unstable (OpenCombine)"
        let head = Subject(0)
        // Combine has no dynamic dependencies: c subscribes to all three inputs.
        let double = head.map { $0 * 2 }.eraseToAnyPublisher()
        let inverse = head.map { -$0 }.eraseToAnyPublisher()
        let out = Sink()
        let cancellable = CombineLatestMany([head.eraseToAnyPublisher(), double, inverse]) { values in
            var total = 0
            for _ in 0..<20 { total += values[0] % 2 != 0 ? values[1] : values[2] }
            return total
        }.sink {
            out.value = $0; out.count += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                try expect(out.value == 40, name, "c == \(out.value) after write 1")
                for i in 0..<100 { write(head, i) }
                try expect(out.value == 40 * 99, name, "c == \(out.value) after write 99")
            }, keepAlive: [head, cancellable])
    }

    static func avoidable() -> KairoGraph {
        let name = "avoidable (OpenCombine)"
        let head = Subject(0)
        let runs = Counter()
        let c5 = head.map { $0 }
            .map { _ in 0 }.removeDuplicates()
            .map { (value: Int) -> Int in
                runs.n += 1; busy(); return value + 1
            }
            .map { (value: Int) -> Int in
                runs.n += 1; return value + 2
            }
            .map { (value: Int) -> Int in
                runs.n += 1; return value + 3
            }
        let out = Sink()
        let cancellable = c5.sink {
            out.value = $0; runs.n += 1; busy()
        }
        return KairoGraph(
            iter: {
                runs.n = 0
                write(head, 1)
                try expect(out.value == 6, name, "c5 == \(out.value) after write 1")
                for i in 0..<1000 {
                    write(head, i)
                    try expect(out.value == 6, name, "c5 == \(out.value) after write \(i)")
                }
                try expect(runs.n == 0, name, "c3…c5 and E re-ran \(runs.n) times")
            }, keepAlive: [head, cancellable])
    }

    static func mux() -> KairoGraph {
        let name = "mux (OpenCombine)"
        let heads = (0..<100).map { _ in Subject(0) }
        // All 100 values as one array, new on every change, shared by the 100 readers.
        let mux = CombineLatestMany(heads) { $0 }
            .multicast { PassthroughSubject<[Int], Never>() }
        let outs = (0..<100).map { _ in Sink() }
        var cancellables: [AnyCancellable] = []
        for i in 0..<100 {
            let out = outs[i]
            cancellables.append(mux.map { $0[i] }.removeDuplicates().map { $0 + 1 }.sink { out.value = $0 })
        }
        cancellables.append(AnyCancellable(mux.connect()))
        return KairoGraph(
            iter: {
                for i in 0..<10 {
                    write(heads[i], i)
                    try expect(outs[i].value == i + 1, name, "t\(i) == \(outs[i].value)")
                }
                for i in 0..<10 {
                    write(heads[i], 2 * i)
                    try expect(outs[i].value == 2 * i + 1, name, "t\(i) == \(outs[i].value)")
                }
            }, keepAlive: [heads, cancellables])
    }
}
