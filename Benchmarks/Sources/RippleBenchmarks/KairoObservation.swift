// The kairo graphs on Swift's Observation framework (see ObservationGraph.swift).
// Values are asserted as the spec says; reaction counts are asserted where the FIFO queue
// happens to be glitch-free on that graph (deep, broad, diamond, triangle, repeated, avoidable).

enum KairoObservation {
    /// One write and the propagation after it.
    @inline(__always)
    static func write(_ box: IntBox, _ value: Int, _ scheduler: OScheduler) {
        if box.value != value { box.value = value }
        scheduler.flush()
    }

    static func deep() -> KairoGraph {
        let name = "deep (Observation)"
        let s = OScheduler()
        let head = IntBox(0)
        var chain: [OInt] = [OInt(s) { head.value + 1 }]
        for _ in 1..<50 {
            let previous = chain[chain.count - 1]
            chain.append(OInt(s) { previous.value + 1 })
        }
        let last = chain[49]
        let count = Counter()
        let effect = OEffect(s) {
            _ = last.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1, s)
                count.n = 0
                for i in 0..<50 {
                    write(head, i, s)
                    try expect(last.value == 50 + i, name, "c50 == \(last.value) after write \(i)")
                }
                try expect(count.n == 50, name, "reaction ran \(count.n) times, expected 50")
            }, keepAlive: [s, head, chain, effect])
    }

    static func broad() -> KairoGraph {
        let name = "broad (Observation)"
        let s = OScheduler()
        let head = IntBox(0)
        let count = Counter()
        var nodes: [OInt] = []
        var effects: [OEffect] = []
        for i in 0..<50 {
            let a = OInt(s) { head.value + i }
            let b = OInt(s) { a.value + 1 }
            effects.append(
                OEffect(s) {
                    _ = b.value; count.n += 1
                })
            nodes += [a, b]
        }
        let last = nodes[nodes.count - 1]
        return KairoGraph(
            iter: {
                write(head, 1, s)
                count.n = 0
                for i in 0..<50 {
                    write(head, i, s)
                    try expect(last.value == i + 50, name, "b49 == \(last.value) after write \(i)")
                }
                try expect(count.n == 2500, name, "reactions ran \(count.n) times, expected 2500")
            }, keepAlive: [s, head, nodes, effects])
    }

    static func diamond() -> KairoGraph {
        let name = "diamond (Observation)"
        let s = OScheduler()
        let head = IntBox(0)
        let branches = (0..<5).map { _ in OInt(s) { head.value + 1 } }
        let sum = OInt(s) {
            var total = 0
            for branch in branches { total += branch.value }
            return total
        }
        let count = Counter()
        let effect = OEffect(s) {
            _ = sum.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1, s)
                try expect(sum.value == 10, name, "sum == \(sum.value) after write 1")
                count.n = 0
                for i in 0..<500 {
                    write(head, i, s)
                    try expect(sum.value == (i + 1) * 5, name, "sum == \(sum.value) after write \(i)")
                }
                try expect(count.n == 500, name, "reaction ran \(count.n) times, expected 500")
            }, keepAlive: [s, head, branches, sum, effect])
    }

    static func triangle() -> KairoGraph {
        let name = "triangle (Observation)"
        let s = OScheduler()
        let head = IntBox(0)
        var chain: [OInt] = [OInt(s) { head.value + 1 }]
        for _ in 1..<10 {
            let previous = chain[chain.count - 1]
            chain.append(OInt(s) { previous.value + 1 })
        }
        let listTail = Array(chain[0..<9])
        let sum = OInt(s) {
            var total = head.value
            for node in listTail { total += node.value }
            return total
        }
        let count = Counter()
        let effect = OEffect(s) {
            _ = sum.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1, s)
                try expect(sum.value == 55, name, "sum == \(sum.value) after write 1")
                count.n = 0
                for i in 0..<100 {
                    write(head, i, s)
                    try expect(sum.value == 10 * i + 45, name, "sum == \(sum.value) after write \(i)")
                }
                // The FIFO queue runs sum before the chain has settled: sum and its reaction run
                // more than once per write. Counted, not asserted.
                blackHole(count.n)
            }, keepAlive: [s, head, chain, sum, effect])
    }

    static func repeated() -> KairoGraph {
        let name = "repeated (Observation)"
        let s = OScheduler()
        let head = IntBox(0)
        let c = OInt(s) {
            var total = 0
            for _ in 0..<30 { total += head.value }
            return total
        }
        let count = Counter()
        let effect = OEffect(s) {
            _ = c.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1, s)
                try expect(c.value == 30, name, "c == \(c.value) after write 1")
                count.n = 0
                for i in 0..<100 {
                    write(head, i, s)
                    try expect(c.value == 30 * i, name, "c == \(c.value) after write \(i)")
                }
                try expect(count.n == 100, name, "reaction ran \(count.n) times, expected 100")
            }, keepAlive: [s, head, c, effect])
    }

    static func unstable() -> KairoGraph {
        let name = "unstable (Observation)"
        let s = OScheduler()
        let head = IntBox(0)
        let double = OInt(s) { head.value * 2 }
        let inverse = OInt(s) { -head.value }
        let c = OInt(s) {
            var total = 0
            for _ in 0..<20 { total += head.value % 2 != 0 ? double.value : inverse.value }
            return total
        }
        let count = Counter()
        let effect = OEffect(s) {
            _ = c.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1, s)
                try expect(c.value == 40, name, "c == \(c.value) after write 1")
                count.n = 0
                for i in 0..<100 { write(head, i, s) }
                try expect(c.value == 40 * 99, name, "c == \(c.value) after write 99")
            }, keepAlive: [s, head, double, inverse, c, effect])
    }

    static func avoidable() -> KairoGraph {
        let name = "avoidable (Observation)"
        let s = OScheduler()
        let head = IntBox(0)
        let runs = Counter()
        let c1 = OInt(s) { head.value }
        let c2 = OInt(s) {
            _ = c1.value; return 0
        }
        let c3 = OInt(s) {
            runs.n += 1; busy(); return c2.value + 1
        }
        let c4 = OInt(s) {
            runs.n += 1; return c3.value + 2
        }
        let c5 = OInt(s) {
            runs.n += 1; return c4.value + 3
        }
        let effect = OEffect(s) {
            _ = c5.value; runs.n += 1; busy()
        }
        return KairoGraph(
            iter: {
                runs.n = 0
                write(head, 1, s)
                try expect(c5.value == 6, name, "c5 == \(c5.value) after write 1")
                for i in 0..<1000 {
                    write(head, i, s)
                    try expect(c5.value == 6, name, "c5 == \(c5.value) after write \(i)")
                }
                try expect(runs.n == 0, name, "c3…c5 and E re-ran \(runs.n) times")
            }, keepAlive: [s, head, c1, c2, c3, c4, c5, effect])
    }

    static func mux() -> KairoGraph {
        let name = "mux (Observation)"
        let s = OScheduler()
        let heads = (0..<100).map { _ in IntBox(0) }
        let mux = OIntArray(s) { heads.map { $0.value } }
        let split = (0..<100).map { i in OInt(s) { mux.value[i] } }
        let plusOne = split.map { x in OInt(s) { x.value + 1 } }
        let effects = plusOne.map { t in OEffect(s) { _ = t.value } }
        return KairoGraph(
            iter: {
                for i in 0..<10 {
                    write(heads[i], i, s)
                    try expect(plusOne[i].value == i + 1, name, "t\(i) == \(plusOne[i].value)")
                }
                for i in 0..<10 {
                    write(heads[i], 2 * i, s)
                    try expect(plusOne[i].value == 2 * i + 1, name, "t\(i) == \(plusOne[i].value)")
                }
            }, keepAlive: [s, heads, mux, split, plusOne, effects])
    }
}
