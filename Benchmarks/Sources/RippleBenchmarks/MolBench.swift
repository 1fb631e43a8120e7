import Ripple

// molBench: timed like the public suite, 10 000 iter() per sample (after iter(0), iter(1),
// iter(2) as warm-up), with iter(k) for k = 1, 2, … as the spec writes it.

/// Left to the optimizer, as the JavaScript suite leaves it to the JIT.
func fib(_ n: Int) -> Int { n < 2 ? 1 : fib(n - 1) + fib(n - 2) }

@inline(__always)
func hard(_ n: Int) -> Int { n + fib(16) }

/// An element of D. Not `Equatable`: D is a new array on every evaluation, so (as in the
/// JavaScript suite) every evaluation of D is a change.
struct MolX: Sendable {
    let x: Int
}

/// A list shared with reactions (single-threaded).
final class ResultList: @unchecked Sendable {
    var values: [Int] = []
}

enum MolBench {
    static let expected = [3204, 1607, 3201, 1604]

    /// The timed loop: `count` iterations starting at k = `start`.
    static func measure(_ iter: (Int) throws -> Void, warmup: Bool) -> Outcome {
        do {
            if warmup { for k in 0..<3 { try iter(k) } }
            let perSample = config.quick ? 1_000 : 10_000
            var k = 3
            let stats = try sample(maximum: config.samples, minimum: config.minimumSamples, budget: config.fastBudget) {
                try timed {
                    for _ in 0..<perSample { try iter(k); k += 1 }
                }
            }
            return .measured(stats)
        } catch {
            return .failed("\(error)")
        }
    }

    static func ripple() -> Outcome {
        let name = "molBench (Ripple)"
        let a = Stored(0)
        let b = Stored(0)
        let c = Computed { a.value % 2 + b.value % 2 }
        let d = Computed { (0..<5).map { i in MolX(x: i + a.value % 2 - b.value % 2) } }
        let e = Computed { hard(c.value + a.value + d.value[0].x) }
        let f = Computed {
            let x = d.value[2].x
            return hard(x != 0 ? x : b.value)
        }
        let g = Computed {
            let first = c.value
            let second = c.value
            return first + (second != 0 ? second : e.value % 2) + d.value[4].x + f.value
        }
        let res = ResultList()
        let h = observe { res.values.append(hard(g.value)) }
        let i = observe { res.values.append(g.value) }
        let j = observe { res.values.append(hard(f.value)) }
        let outcome = measure(
            { k in
                res.values.removeAll(keepingCapacity: true)
                batch {
                    b.value = 1; a.value = 1 + 2 * k
                }
                batch {
                    a.value = 2 + 2 * k; b.value = 2
                }
                try expect(res.values == expected, name, "iter(\(k)): res == \(res.values), expected \(expected)")
            }, warmup: true)
        withExtendedLifetime((a, b, c, d, e, f, g, h, i, j)) {}
        return outcome
    }

    /// The same work by hand: every node keeps the versions of the sources it read last, is
    /// evaluated only when read (E only when C == 0) and only if one of them changed; D is a new
    /// array on every evaluation; reactions run in creation order when what they read changed.
    final class Floor {
        var a = 0, b = 0, av = 0, bv = 0
        var c = 0, cv = 0, cSeen = (a: -1, b: -1)
        var d: [MolX] = [], dv = 0, dSeen = (a: -1, b: -1)
        var e = 0, ev = 0, eSeen = (c: -1, a: -1, d: -1), eHas = false
        var f = 0, fv = 0, fSeen = (d: -1, b: -1), fReadB = false
        var g = 0, gv = 0, gSeen = (c: -1, e: -1, d: -1, f: -1), gReadE = false
        var hSeen = -1, iSeen = -1, jSeen = -1
        var res: [Int] = []

        func readC() -> Int {
            if cSeen != (av, bv) {
                cSeen = (av, bv)
                let next = a % 2 + b % 2
                if next != c { c = next; cv += 1 }
            }
            return c
        }
        func readD() -> [MolX] {
            if dSeen != (av, bv) {
                dSeen = (av, bv)
                d = (0..<5).map { i in MolX(x: i + a % 2 - b % 2) }
                dv += 1
            }
            return d
        }
        func readE() -> Int {
            // Bring the sources up to date first, then compare what E saw.
            _ = readC(); _ = readD()
            if !eHas || eSeen != (cv, av, dv) {
                eHas = true
                let next = hard(readC() + a + readD()[0].x)
                eSeen = (cv, av, dv)
                if next != e { e = next; ev += 1 }
            }
            return e
        }
        func readF() -> Int {
            _ = readD()
            if fSeen.d != dv || (fReadB && fSeen.b != bv) {
                let x = readD()[2].x
                fReadB = x == 0
                let next = hard(x != 0 ? x : b)
                fSeen = (dv, bv)
                if next != f { f = next; fv += 1 }
            }
            return f
        }
        func readG() -> Int {
            _ = readC(); _ = readD(); _ = readF()
            var changed = gSeen.c != cv || gSeen.d != dv || gSeen.f != fv
            if !changed && gReadE { _ = readE(); changed = gSeen.e != ev }
            if changed {
                let cValue = readC()
                gReadE = cValue == 0
                let next = cValue + (cValue != 0 ? cValue : readE() % 2) + readD()[4].x + readF()
                gSeen = (cv, gReadE ? ev : gSeen.e, dv, fv)
                if next != g { g = next; gv += 1 }
            }
            return g
        }
        /// Runs the reactions whose inputs changed, in creation order.
        func react() {
            let gValue = readG()
            if hSeen != gv { hSeen = gv; res.append(hard(gValue)) }
            if iSeen != gv { iSeen = gv; res.append(gValue) }
            let fValue = readF()
            if jSeen != fv { jSeen = fv; res.append(hard(fValue)) }
        }
        func setA(_ value: Int) { if value != a { a = value; av += 1 } }
        func setB(_ value: Int) { if value != b { b = value; bv += 1 } }
    }

    static func floor() -> Outcome {
        let name = "molBench (floor)"
        let graph = Floor()
        graph.react()
        return measure(
            { k in
                graph.res.removeAll(keepingCapacity: true)
                graph.setB(1); graph.setA(1 + 2 * k); graph.react()
                graph.setA(2 + 2 * k); graph.setB(2); graph.react()
                try expect(graph.res == expected, name, "iter(\(k)): res == \(graph.res), expected \(expected)")
            }, warmup: true)
    }
}
