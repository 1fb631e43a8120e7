import OpenCombine
import Ripple

// cellx: L layers of 4 cells over 4 stored start values, one reaction per cell. Each build is
// fresh and not timed; timed: read the 4 top values, batch-write the start values, read again.
// A sample is the sum of `config.cellxBuilds` (10) such timings, as the public suite reports.

enum Cellx {
    static let before = [-3, -6, -2, 2]
    static let after = [-2, -4, 2, 3]

    /// Takes `config.cellxSamples` samples, each the sum of `config.cellxBuilds` timed updates.
    static func measure(_ once: () throws -> UInt64) -> Outcome {
        do {
            _ = try once()  // warm-up
            let builds = config.cellxBuilds
            let stats = try sample(maximum: config.cellxSamples, minimum: 1, budget: .infinity) {
                var total: UInt64 = 0
                for _ in 0..<builds { total += try once() }
                return total
            }
            return .measured(stats)
        } catch {
            return .failed("\(error)")
        }
    }

    static func check(_ name: String, _ values: [Int], _ expected: [Int], _ when: String) throws {
        try expect(values == expected, name, "\(when): top layer == \(values), expected \(expected)")
    }

    // MARK: Ripple

    typealias Layer = (Computed<Int>, Computed<Int>, Computed<Int>, Computed<Int>)

    static func layer<R: Readable<Int> & Sendable>(_ m: (R, R, R, R), _ reactions: inout [Ripple.Subscription]) -> Layer
    {
        let s: Layer = (
            Computed { m.1.value },
            Computed { m.0.value - m.2.value },
            Computed { m.1.value + m.3.value },
            Computed { m.2.value }
        )
        reactions.append(observe { _ = s.0.value })
        reactions.append(observe { _ = s.1.value })
        reactions.append(observe { _ = s.2.value })
        reactions.append(observe { _ = s.3.value })
        return s
    }

    static func ripple(_ layers: Int) -> Outcome {
        let name = "cellx \(layers) (Ripple)"
        return measure {
            let start = (Stored(1), Stored(2), Stored(3), Stored(4))
            var reactions: [Ripple.Subscription] = []
            reactions.reserveCapacity(4 * layers)
            var end = layer(start, &reactions)
            for _ in 1..<layers { end = layer(end, &reactions) }
            let t0 = now()
            let first = [end.0.value, end.1.value, end.2.value, end.3.value]
            batch {
                start.0.value = 4
                start.1.value = 3
                start.2.value = 2
                start.3.value = 1
            }
            let second = [end.0.value, end.1.value, end.2.value, end.3.value]
            let elapsed = now() - t0
            try check(name, first, before, "before")
            try check(name, second, after, "after")
            withExtendedLifetime((start, reactions, end)) {}
            return elapsed
        }
    }

    // MARK: floor

    /// Every cell's value in one array (4 per layer, start values first); a write recomputes
    /// the layers in order, only cells whose sources changed, and runs their reactions.
    static func floor(_ layers: Int) -> Outcome {
        let name = "cellx \(layers) (floor)"
        return measure {
            var values = [Int](repeating: 0, count: 4 * (layers + 1))
            var changed = [Bool](repeating: false, count: 4 * (layers + 1))
            var reactions = 0
            values[0] = 1; values[1] = 2; values[2] = 3; values[3] = 4
            for l in 1...layers {
                let m = 4 * (l - 1), s = 4 * l
                values[s] = values[m + 1]
                values[s + 1] = values[m] - values[m + 2]
                values[s + 2] = values[m + 1] + values[m + 3]
                values[s + 3] = values[m + 2]
                reactions += 4
            }
            let top = 4 * layers
            let t0 = now()
            let first = [values[top], values[top + 1], values[top + 2], values[top + 3]]
            for (index, value) in [4, 3, 2, 1].enumerated() {
                changed[index] = values[index] != value
                values[index] = value
            }
            for l in 1...layers {
                let m = 4 * (l - 1), s = 4 * l
                func update(_ index: Int, _ sourcesChanged: Bool, _ value: () -> Int) {
                    changed[index] = false
                    guard sourcesChanged else { return }
                    let next = value()
                    if next != values[index] {
                        values[index] = next
                        changed[index] = true
                        reactions += 1  // its reaction runs
                    }
                }
                update(s, changed[m + 1]) { values[m + 1] }
                update(s + 1, changed[m] || changed[m + 2]) { values[m] - values[m + 2] }
                update(s + 2, changed[m + 1] || changed[m + 3]) { values[m + 1] + values[m + 3] }
                update(s + 3, changed[m + 2]) { values[m + 2] }
            }
            let second = [values[top], values[top + 1], values[top + 2], values[top + 3]]
            let elapsed = now() - t0
            blackHole(reactions)
            try check(name, first, before, "before")
            try check(name, second, after, "after")
            return elapsed
        }
    }

    // MARK: Observation

    static func observation(_ layers: Int) -> Outcome {
        let name = "cellx \(layers) (Observation)"
        return measure {
            let s = OScheduler()
            let start = (IntBox(1), IntBox(2), IntBox(3), IntBox(4))
            var effects: [OEffect] = []
            var nodes: [OInt] = []
            func makeLayer(
                _ m1: @escaping () -> Int, _ m2: @escaping () -> Int, _ m3: @escaping () -> Int,
                _ m4: @escaping () -> Int
            )
                -> (OInt, OInt, OInt, OInt)
            {
                let l = (OInt(s) { m2() }, OInt(s) { m1() - m3() }, OInt(s) { m2() + m4() }, OInt(s) { m3() })
                nodes += [l.0, l.1, l.2, l.3]
                effects += [
                    OEffect(s) { _ = l.0.value }, OEffect(s) { _ = l.1.value },
                    OEffect(s) { _ = l.2.value }, OEffect(s) { _ = l.3.value },
                ]
                return l
            }
            var end = makeLayer({ start.0.value }, { start.1.value }, { start.2.value }, { start.3.value })
            for _ in 1..<layers {
                let m = end
                end = makeLayer({ m.0.value }, { m.1.value }, { m.2.value }, { m.3.value })
            }
            let t0 = now()
            let first = [end.0.value, end.1.value, end.2.value, end.3.value]
            start.0.value = 4
            start.1.value = 3
            start.2.value = 2
            start.3.value = 1
            s.flush()
            let second = [end.0.value, end.1.value, end.2.value, end.3.value]
            let elapsed = now() - t0
            try check(name, first, before, "before")
            try check(name, second, after, "after")
            withExtendedLifetime((start, effects, nodes)) {}
            return elapsed
        }
    }

    // MARK: OpenCombine

    /// A cell: the latest value of its publisher, re-sent only when it changes.
    final class Cell {
        let subject = CurrentValueSubject<Int, Never>(0)
        var upstream: AnyCancellable?
        var reaction: AnyCancellable?
        init(_ publisher: some Publisher<Int, Never>) {
            let subject = self.subject
            upstream = publisher.sink { value in
                if Cellx.aborted { return }
                Cellx.sends += 1
                if Cellx.sends > Cellx.sendLimit { Cellx.aborted = true; return }
                if subject.value != value { subject.send(value) }
            }
            reaction = subject.sink { blackHole($0) }
        }
        var value: Int { subject.value }
    }

    /// Sends along each cell are counted; Combine's glitches grow with depth, so a run that
    /// passes this many is stopped and reported as not applicable.
    nonisolated(unsafe) static var sends = 0
    nonisolated(unsafe) static var aborted = false
    static let sendLimit = 2_000_000

    struct CascadeTooLarge: Error {}

    static func combine(_ layers: Int) -> Outcome {
        let name = "cellx \(layers) (OpenCombine)"
        // Probe once: glitch cascades in Combine may grow exponentially with the depth.
        do {
            _ = try combineOnce(layers, name)
        } catch is CascadeTooLarge {
            return .notApplicable("glitch cascade > \(sendLimit / 1_000_000)M sends")
        } catch {
            return .failed("\(error)")
        }
        return measure { try combineOnce(layers, name) }
    }

    static func combineOnce(_ layers: Int, _ name: String) throws -> UInt64 {
        let start = (
            CurrentValueSubject<Int, Never>(1), CurrentValueSubject<Int, Never>(2),
            CurrentValueSubject<Int, Never>(3), CurrentValueSubject<Int, Never>(4)
        )
        var cells: [Cell] = []
        cells.reserveCapacity(4 * layers)
        func makeLayer(
            _ m: (
                AnyPublisher<Int, Never>, AnyPublisher<Int, Never>, AnyPublisher<Int, Never>, AnyPublisher<Int, Never>
            )
        )
            -> (Cell, Cell, Cell, Cell)
        {
            let l = (
                Cell(m.1),
                Cell(CombineLatestMany([m.0, m.2]) { $0[0] - $0[1] }),
                Cell(CombineLatestMany([m.1, m.3]) { $0[0] + $0[1] }),
                Cell(m.2)
            )
            cells += [l.0, l.1, l.2, l.3]
            return l
        }
        var end = makeLayer(
            (
                start.0.eraseToAnyPublisher(), start.1.eraseToAnyPublisher(),
                start.2.eraseToAnyPublisher(), start.3.eraseToAnyPublisher()
            ))
        for _ in 1..<layers {
            end = makeLayer(
                (
                    end.0.subject.eraseToAnyPublisher(), end.1.subject.eraseToAnyPublisher(),
                    end.2.subject.eraseToAnyPublisher(), end.3.subject.eraseToAnyPublisher()
                ))
        }
        sends = 0
        aborted = false
        let t0 = now()
        let first = [end.0.value, end.1.value, end.2.value, end.3.value]
        start.0.send(4)
        start.1.send(3)
        start.2.send(2)
        start.3.send(1)
        if aborted { throw CascadeTooLarge() }
        let second = [end.0.value, end.1.value, end.2.value, end.3.value]
        let elapsed = now() - t0
        try check(name, first, before, "before")
        try check(name, second, after, "after")
        withExtendedLifetime((start, cells)) {}
        return elapsed
    }
}
