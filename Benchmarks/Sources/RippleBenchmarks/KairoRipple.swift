import Ripple

// The kairo graphs built with Ripple: Stored heads, Computed nodes, observe reactions.
// A "write" is one batch holding one write, as in the spec.

@inline(__always)
private func write(_ stored: Stored<Int>, _ value: Int) {
    batch { stored.value = value }
}

enum KairoRipple {
    static func deep() -> KairoGraph {
        let name = "deep (Ripple)"
        let head = Stored(0)
        var chain: [Computed<Int>] = [Computed { head.value + 1 }]
        for _ in 1..<50 {
            let previous = chain[chain.count - 1]
            chain.append(Computed { previous.value + 1 })
        }
        let last = chain[49]
        let count = Counter()
        let reaction = observe {
            _ = last.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                count.n = 0
                for i in 0..<50 {
                    write(head, i)
                    let value = last.value
                    try expect(value == 50 + i, name, "c50 == \(value) after write \(i), expected \(50 + i)")
                }
                try expect(count.n == 50, name, "reaction ran \(count.n) times, expected 50")
            }, keepAlive: [head, chain, reaction])
    }

    static func broad() -> KairoGraph {
        let name = "broad (Ripple)"
        let head = Stored(0)
        let count = Counter()
        var nodes: [Computed<Int>] = []
        var reactions: [Subscription] = []
        for i in 0..<50 {
            let a = Computed { head.value + i }
            let b = Computed { a.value + 1 }
            reactions.append(
                observe {
                    _ = b.value; count.n += 1
                })
            nodes += [a, b]
        }
        let last = nodes[nodes.count - 1]
        return KairoGraph(
            iter: {
                write(head, 1)
                count.n = 0
                for i in 0..<50 {
                    write(head, i)
                    let value = last.value
                    try expect(value == i + 50, name, "b49 == \(value) after write \(i), expected \(i + 50)")
                }
                try expect(count.n == 2500, name, "reactions ran \(count.n) times, expected 2500")
            }, keepAlive: [head, nodes, reactions])
    }

    static func diamond() -> KairoGraph {
        let name = "diamond (Ripple)"
        let head = Stored(0)
        let branches = (0..<5).map { _ in Computed { head.value + 1 } }
        let sum = Computed {
            var total = 0
            for branch in branches { total += branch.value }
            return total
        }
        let count = Counter()
        let reaction = observe {
            _ = sum.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                let first = sum.value
                try expect(first == 10, name, "sum == \(first) after write 1, expected 10")
                count.n = 0
                for i in 0..<500 {
                    write(head, i)
                    let value = sum.value
                    try expect(value == (i + 1) * 5, name, "sum == \(value) after write \(i), expected \((i + 1) * 5)")
                }
                try expect(count.n == 500, name, "reaction ran \(count.n) times, expected 500")
            }, keepAlive: [head, branches, sum, reaction])
    }

    static func triangle() -> KairoGraph {
        let name = "triangle (Ripple)"
        let head = Stored(0)
        var chain: [Computed<Int>] = [Computed { head.value + 1 }]
        for _ in 1..<10 {
            let previous = chain[chain.count - 1]
            chain.append(Computed { previous.value + 1 })
        }
        // list = [head, c1…c9]; c10 is built but never read.
        let listTail = Array(chain[0..<9])
        let sum = Computed {
            var total = head.value
            for node in listTail { total += node.value }
            return total
        }
        let count = Counter()
        let reaction = observe {
            _ = sum.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                let first = sum.value
                try expect(first == 55, name, "sum == \(first) after write 1, expected 55")
                count.n = 0
                for i in 0..<100 {
                    write(head, i)
                    let value = sum.value
                    try expect(value == 10 * i + 45, name, "sum == \(value) after write \(i), expected \(10 * i + 45)")
                }
                try expect(count.n == 100, name, "reaction ran \(count.n) times, expected 100")
            }, keepAlive: [head, chain, sum, reaction])
    }

    static func repeated() -> KairoGraph {
        let name = "repeated (Ripple)"
        let head = Stored(0)
        let c = Computed {
            var total = 0
            for _ in 0..<30 { total += head.value }
            return total
        }
        let count = Counter()
        let reaction = observe {
            _ = c.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                let first = c.value
                try expect(first == 30, name, "c == \(first) after write 1, expected 30")
                count.n = 0
                for i in 0..<100 {
                    write(head, i)
                    let value = c.value
                    try expect(value == 30 * i, name, "c == \(value) after write \(i), expected \(30 * i)")
                }
                try expect(count.n == 100, name, "reaction ran \(count.n) times, expected 100")
            }, keepAlive: [head, c, reaction])
    }

    static func unstable() -> KairoGraph {
        let name = "unstable (Ripple)"
        let head = Stored(0)
        let double = Computed { head.value * 2 }
        let inverse = Computed { -head.value }
        let c = Computed {
            var total = 0
            for _ in 0..<20 { total += head.value % 2 != 0 ? double.value : inverse.value }
            return total
        }
        let count = Counter()
        let reaction = observe {
            _ = c.value; count.n += 1
        }
        return KairoGraph(
            iter: {
                write(head, 1)
                let first = c.value
                try expect(first == 40, name, "c == \(first) after write 1, expected 40")
                count.n = 0
                for i in 0..<100 { write(head, i) }
                try expect(count.n == 100, name, "reaction ran \(count.n) times, expected 100")
                let final = c.value
                try expect(final == 40 * 99, name, "c == \(final) after write 99, expected \(40 * 99)")
            }, keepAlive: [head, double, inverse, c, reaction])
    }

    static func avoidable() -> KairoGraph {
        let name = "avoidable (Ripple)"
        let head = Stored(0)
        let runs = Counter()  // evaluations of c3, c4, c5 and runs of E
        let c1 = Computed { head.value }
        let c2 = Computed {
            _ = c1.value; return 0
        }
        let c3 = Computed {
            runs.n += 1; busy(); return c2.value + 1
        }
        let c4 = Computed {
            runs.n += 1; return c3.value + 2
        }
        let c5 = Computed {
            runs.n += 1; return c4.value + 3
        }
        let reaction = observe {
            _ = c5.value; runs.n += 1; busy()
        }
        return KairoGraph(
            iter: {
                runs.n = 0
                write(head, 1)
                let first = c5.value
                try expect(first == 6, name, "c5 == \(first) after write 1, expected 6")
                for i in 0..<1000 {
                    write(head, i)
                    let value = c5.value
                    try expect(value == 6, name, "c5 == \(value) after write \(i), expected 6")
                }
                try expect(runs.n == 0, name, "c3…c5 and E re-ran \(runs.n) times, expected never")
            }, keepAlive: [head, c1, c2, c3, c4, c5, reaction])
    }

    static func mux() -> KairoGraph {
        let name = "mux (Ripple)"
        let heads = (0..<100).map { _ in Stored(0) }
        // A new array on every evaluation.
        let mux = Computed { heads.map { $0.value } }
        let split = (0..<100).map { i in Computed { mux.value[i] } }
        let plusOne = split.map { s in Computed { s.value + 1 } }
        let reactions = plusOne.map { t in observe { _ = t.value } }
        return KairoGraph(
            iter: {
                for i in 0..<10 {
                    write(heads[i], i)
                    let value = plusOne[i].value
                    try expect(value == i + 1, name, "t\(i) == \(value) after h\(i) = \(i), expected \(i + 1)")
                }
                for i in 0..<10 {
                    write(heads[i], 2 * i)
                    let value = plusOne[i].value
                    try expect(
                        value == 2 * i + 1, name, "t\(i) == \(value) after h\(i) = \(2 * i), expected \(2 * i + 1)")
                }
            }, keepAlive: [heads, mux, split, plusOne, reactions])
    }
}
