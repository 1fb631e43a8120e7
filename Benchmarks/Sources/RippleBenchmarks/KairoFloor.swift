// The kairo graphs' work written by hand in plain Swift: the floor.
//
// Each graph keeps every node's value in a field. A write recomputes, in topological order, only
// the nodes a changed source reaches, stops where a recomputed value is equal to the old one
// (equality cut-off), skips nodes nothing reads (laziness), and runs a reaction only when what it
// reads changed. So the floor evaluates exactly what Ripple evaluates, with no graph
// bookkeeping: a fair lower bound.

enum KairoFloor {
    final class Deep {
        var head = 0
        var c = [Int](repeating: 0, count: 50)
        var count = 0
        init() {
            var previous = head
            for k in 0..<50 { c[k] = previous + 1; previous = c[k] }
            effect()
        }
        func effect() { blackHole(c[49]); count += 1 }
        func write(_ value: Int) {
            if value == head { return }
            head = value
            var previous = value
            for k in 0..<50 {
                let next = previous + 1
                if next == c[k] { return }
                c[k] = next
                previous = next
            }
            effect()
        }
    }

    static func deep() -> KairoGraph {
        let name = "deep (floor)"
        let g = Deep()
        return KairoGraph(
            iter: {
                g.write(1)
                g.count = 0
                for i in 0..<50 {
                    g.write(i)
                    try expect(g.c[49] == 50 + i, name, "c50 == \(g.c[49]) after write \(i)")
                }
                try expect(g.count == 50, name, "reaction ran \(g.count) times, expected 50")
            }, keepAlive: [g])
    }

    final class Broad {
        var head = 0
        var a = [Int](repeating: 0, count: 50)
        var b = [Int](repeating: 0, count: 50)
        var count = 0
        init() {
            for i in 0..<50 { a[i] = head + i; b[i] = a[i] + 1; effect(i) }
        }
        func effect(_ i: Int) { blackHole(b[i]); count += 1 }
        func write(_ value: Int) {
            if value == head { return }
            head = value
            for i in 0..<50 {
                let na = head + i
                if na == a[i] { continue }
                a[i] = na
                let nb = na + 1
                if nb == b[i] { continue }
                b[i] = nb
                effect(i)
            }
        }
    }

    static func broad() -> KairoGraph {
        let name = "broad (floor)"
        let g = Broad()
        return KairoGraph(
            iter: {
                g.write(1)
                g.count = 0
                for i in 0..<50 {
                    g.write(i)
                    try expect(g.b[49] == i + 50, name, "b49 == \(g.b[49]) after write \(i)")
                }
                try expect(g.count == 2500, name, "reactions ran \(g.count) times, expected 2500")
            }, keepAlive: [g])
    }

    final class Diamond {
        var head = 0
        var c = [Int](repeating: 0, count: 5)
        var sum = 0
        var count = 0
        init() {
            for k in 0..<5 { c[k] = head + 1 }
            sum = c.reduce(0, +)
            effect()
        }
        func effect() { blackHole(sum); count += 1 }
        func write(_ value: Int) {
            if value == head { return }
            head = value
            var changed = false
            for k in 0..<5 {
                let next = head + 1
                if next != c[k] { c[k] = next; changed = true }
            }
            if !changed { return }
            var total = 0
            for k in 0..<5 { total += c[k] }
            if total == sum { return }
            sum = total
            effect()
        }
    }

    static func diamond() -> KairoGraph {
        let name = "diamond (floor)"
        let g = Diamond()
        return KairoGraph(
            iter: {
                g.write(1)
                try expect(g.sum == 10, name, "sum == \(g.sum) after write 1")
                g.count = 0
                for i in 0..<500 {
                    g.write(i)
                    try expect(g.sum == (i + 1) * 5, name, "sum == \(g.sum) after write \(i)")
                }
                try expect(g.count == 500, name, "reaction ran \(g.count) times, expected 500")
            }, keepAlive: [g])
    }

    final class Triangle {
        var head = 0
        /// c1…c9 (c10 is never read, so a lazy graph never evaluates it).
        var c = [Int](repeating: 0, count: 9)
        var sum = 0
        var count = 0
        init() {
            var previous = head
            for k in 0..<9 { c[k] = previous + 1; previous = c[k] }
            sum = head + c.reduce(0, +)
            effect()
        }
        func effect() { blackHole(sum); count += 1 }
        func write(_ value: Int) {
            if value == head { return }
            head = value
            var previous = value
            for k in 0..<9 {
                let next = previous + 1
                if next == c[k] { break }
                c[k] = next
                previous = next
            }
            var total = head
            for k in 0..<9 { total += c[k] }
            if total == sum { return }
            sum = total
            effect()
        }
    }

    static func triangle() -> KairoGraph {
        let name = "triangle (floor)"
        let g = Triangle()
        return KairoGraph(
            iter: {
                g.write(1)
                try expect(g.sum == 55, name, "sum == \(g.sum) after write 1")
                g.count = 0
                for i in 0..<100 {
                    g.write(i)
                    try expect(g.sum == 10 * i + 45, name, "sum == \(g.sum) after write \(i)")
                }
                try expect(g.count == 100, name, "reaction ran \(g.count) times, expected 100")
            }, keepAlive: [g])
    }

    final class Repeated {
        var head = 0
        var c = 0
        var count = 0
        init() { c = evaluate(); effect() }
        func evaluate() -> Int {
            var total = 0
            for _ in 0..<30 { total += head }
            return total
        }
        func effect() { blackHole(c); count += 1 }
        func write(_ value: Int) {
            if value == head { return }
            head = value
            let next = evaluate()
            if next == c { return }
            c = next
            effect()
        }
    }

    static func repeated() -> KairoGraph {
        let name = "repeated (floor)"
        let g = Repeated()
        return KairoGraph(
            iter: {
                g.write(1)
                try expect(g.c == 30, name, "c == \(g.c) after write 1")
                g.count = 0
                for i in 0..<100 {
                    g.write(i)
                    try expect(g.c == 30 * i, name, "c == \(g.c) after write \(i)")
                }
                try expect(g.count == 100, name, "reaction ran \(g.count) times, expected 100")
            }, keepAlive: [g])
    }

    final class Unstable {
        var head = 0
        var headVersion = 0
        // dbl and inv are lazy: evaluated only when c reads them, if head changed since.
        var double = 0, doubleSeen = -1
        var inverse = 0, inverseSeen = -1
        var c = 0
        var count = 0
        init() { c = evaluate(); effect() }
        func readDouble() -> Int {
            if doubleSeen != headVersion { double = head * 2; doubleSeen = headVersion }
            return double
        }
        func readInverse() -> Int {
            if inverseSeen != headVersion { inverse = -head; inverseSeen = headVersion }
            return inverse
        }
        func evaluate() -> Int {
            var total = 0
            for _ in 0..<20 { total += head % 2 != 0 ? readDouble() : readInverse() }
            return total
        }
        func effect() { blackHole(c); count += 1 }
        func write(_ value: Int) {
            if value == head { return }
            head = value
            headVersion += 1
            let next = evaluate()
            if next == c { return }
            c = next
            effect()
        }
    }

    static func unstable() -> KairoGraph {
        let name = "unstable (floor)"
        let g = Unstable()
        return KairoGraph(
            iter: {
                g.write(1)
                try expect(g.c == 40, name, "c == \(g.c) after write 1")
                g.count = 0
                for i in 0..<100 { g.write(i) }
                try expect(g.count == 100, name, "reaction ran \(g.count) times, expected 100")
                try expect(g.c == 40 * 99, name, "c == \(g.c) after write 99")
            }, keepAlive: [g])
    }

    final class Avoidable {
        var head = 0
        var c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0
        var runs = 0
        init() {
            c1 = head; c2 = 0
            busy(); c3 = c2 + 1; c4 = c3 + 2; c5 = c4 + 3
            blackHole(c5); busy()
        }
        func write(_ value: Int) {
            if value == head { return }
            head = value
            let n1 = head
            if n1 == c1 { return }
            c1 = n1
            blackHole(c1)
            let n2 = 0
            if n2 == c2 { return }
            c2 = n2
            runs += 1; busy(); c3 = c2 + 1
            runs += 1; c4 = c3 + 2
            runs += 1; c5 = c4 + 3
            runs += 1; blackHole(c5); busy()
        }
    }

    static func avoidable() -> KairoGraph {
        let name = "avoidable (floor)"
        let g = Avoidable()
        return KairoGraph(
            iter: {
                g.runs = 0
                g.write(1)
                try expect(g.c5 == 6, name, "c5 == \(g.c5) after write 1")
                for i in 0..<1000 {
                    g.write(i)
                    try expect(g.c5 == 6, name, "c5 == \(g.c5) after write \(i)")
                }
                try expect(g.runs == 0, name, "c3…c5 and E re-ran \(g.runs) times")
            }, keepAlive: [g])
    }

    final class Mux {
        var heads = [Int](repeating: 0, count: 100)
        var mux: [Int] = []
        var s = [Int](repeating: 0, count: 100)
        var t = [Int](repeating: 0, count: 100)
        init() {
            mux = heads
            for i in 0..<100 { s[i] = mux[i]; t[i] = s[i] + 1; blackHole(t[i]) }
        }
        func write(_ index: Int, _ value: Int) {
            if heads[index] == value { return }
            heads[index] = value
            // A new array on every evaluation, as the spec asks.
            let next = Array(heads)
            if next == mux { return }
            mux = next
            for i in 0..<100 {
                let ns = mux[i]
                if ns == s[i] { continue }
                s[i] = ns
                let nt = ns + 1
                if nt == t[i] { continue }
                t[i] = nt
                blackHole(t[i])
            }
        }
    }

    static func mux() -> KairoGraph {
        let name = "mux (floor)"
        let g = Mux()
        return KairoGraph(
            iter: {
                for i in 0..<10 {
                    g.write(i, i)
                    try expect(g.t[i] == i + 1, name, "t\(i) == \(g.t[i])")
                }
                for i in 0..<10 {
                    g.write(i, 2 * i)
                    try expect(g.t[i] == 2 * i + 1, name, "t\(i) == \(g.t[i])")
                }
            }, keepAlive: [g])
    }
}
