import Observation
import Testing
@testable import Ripple

/// An Observation model, as an app would declare it. `@unchecked Sendable` so that `@Sendable`
/// derivations may capture it; each test touches it from one thread at a time.
@Observable
final class Thermostat: @unchecked Sendable {
    var target = 20
    var unit = "C"
}

/// A model made thread-safe by hand: its value is guarded by a lock, and it reports accesses
/// and changes to Observation as the `@Observable` macro would.
final class Gauge: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    private let lock = _Lock()
    private var storage = 0

    var reading: Int {
        registrar.access(self, keyPath: \.reading)
        return lock.withLock { storage }
    }

    func set(_ reading: Int) {
        registrar.withMutation(of: self, keyPath: \.reading) {
            lock.withLock { storage = reading }
        }
    }
}

/// A model that lives on an actor of its own.
actor Boiler {
    let thermostat = Thermostat()

    func set(_ target: Int) {
        thermostat.target = target
    }
}

// The time limits below are hang guards. Swift Testing counts them from when a test is
// scheduled, including the time it waits for a thread: under ThreadSanitizer on 2 cores the
// whole suite takes 110 to 190 s, and 1-minute limits expired for tests that had barely run
// (CI at 52bcb69). Five minutes still stops a real hang.
@Suite("Observation interop: Ripple tracks @Observable properties read inside tracked { }")
struct TrackedTests {
    @Test("a Computed reading an @Observable property re-evaluates when it changes, once per change")
    @MainActor
    func computedReevaluates() {
        let thermostat = Thermostat()
        let evaluations = Counter()
        let doubled = Computed {
            evaluations.increment(); return tracked { thermostat.target } * 2
        }
        #expect(doubled.value == 40)
        thermostat.target = 21
        #expect(doubled.value == 42)
        #expect(doubled.value == 42)
        #expect(evaluations.value == 2, "cached until the next change")
        thermostat.target = 22
        thermostat.target = 23
        #expect(doubled.value == 46)
        #expect(evaluations.value == 3, "two changes between reads: one evaluation")
        thermostat.unit = "F"
        #expect(doubled.value == 46)
        #expect(evaluations.value == 3, "a property it did not read")
    }

    @Test(
        "a reaction runs again after a change made on the main actor, on the main actor, once", .timeLimit(.minutes(5)))
    @MainActor
    func reactionRunsAgainOnMainActor() async {
        let thermostat = Thermostat()
        let (runs, continuation) = AsyncStream.makeStream(of: (Int, Bool).self)
        let reaction = observe {
            continuation.yield((tracked { thermostat.target }, _isOnMainActor()))
        }
        var iterator = runs.makeAsyncIterator()
        #expect(await iterator.next()?.0 == 20)
        thermostat.target = 21
        thermostat.unit = "F"
        let second = await iterator.next()
        #expect(second?.0 == 21)
        #expect(second?.1 == true, "delivered on the main actor, after the change")
        thermostat.target = 22
        #expect(await iterator.next()?.0 == 22)
        reaction.cancel()
        continuation.finish()
        #expect(await iterator.next() == nil, "one run per change")
    }

    @Test("a change made inside a reaction is applied after the round: the readers run before the write returns")
    func changeInsideReaction() {
        let thermostat = Thermostat()
        let request = Stored(0)
        let seen = Recorder<Int>()
        let writer = observe {
            let target = request.value
            if target > 0 { thermostat.target = target }
        }
        let reader = observe { seen.append(tracked { thermostat.target }) }
        request.value = 25
        #expect(seen.all == [20, 25])
        request.value = 26
        #expect(seen.all == [20, 25, 26])
        writer.cancel()
        reader.cancel()
    }

    @Test(
        "a diamond of a Stored and an @Observable property is glitch-free: one evaluation, one run, consistent values")
    func diamondIsGlitchFree() {
        let thermostat = Thermostat()
        let offset = Stored(0)
        let left = Computed { offset.value + tracked { thermostat.target } }
        let right = Computed { offset.value * 100 }
        let bottomEvaluations = Counter()
        let bottom = Computed {
            bottomEvaluations.increment(); return left.value + right.value
        }
        let seen = Recorder<Int>()
        let reaction = observe { seen.append(bottom.value) }
        #expect(seen.all == [20])
        batch { thermostat.target = 30 }
        #expect(seen.all == [20, 30])
        #expect(bottomEvaluations.value == 2)
        batch {
            offset.value = 1
            thermostat.target = 40
        }
        // 1 + 40 + 100: never a mix of the old offset and the new target, or the reverse.
        #expect(seen.all == [20, 30, 141])
        #expect(bottomEvaluations.value == 3)
        reaction.cancel()
    }

    @Test("a change made on another thread inside a batch runs the reactions on that thread when the batch ends")
    func changeFromAnotherThread() {
        let thermostat = Thermostat()
        let doubled = Computed { tracked { thermostat.target } * 2 }
        let seen = Recorder<Int>()
        let reaction = observe { seen.append(doubled.value) }
        let done = DispatchSemaphoreLike()
        let afterBatch = Recorder<[Int]>()
        Thread.detachNewThreadLike {
            for target in 21...30 {
                batch { thermostat.target = target }
                afterBatch.append(seen.all)
            }
            done.signal()
        }
        done.wait()
        #expect(seen.all == [40] + (21...30).map { $0 * 2 })
        #expect(afterBatch.all.last == seen.all, "each batch's reactions ran before it returned")
        #expect(doubled.value == 60)
        reaction.cancel()
    }

    @Test(
        "a change made inside a batch is atomic like its writes: the batch reads it at once, other threads when the batch ends"
    )
    func batchIsAtomic() {
        let thermostat = Thermostat()
        let doubled = Computed { tracked { thermostat.target } * 2 }
        let reaction = observe { _ = doubled.value }
        let askOther = DispatchSemaphoreLike()
        let otherRead = DispatchSemaphoreLike()
        let seenByOther = Recorder<Int>()
        Thread.detachNewThreadLike {
            askOther.wait()
            seenByOther.append(doubled.value)
            otherRead.signal()
        }
        batch {
            thermostat.target = 30
            #expect(doubled.value == 60, "the batch sees its own change")
            askOther.signal()
            otherRead.wait()
        }
        #expect(seenByOther.all == [40], "another thread saw the batch's change only when it ended")
        #expect(doubled.value == 60)
        reaction.cancel()
    }

    @Test(
        "changes from several threads, made inside batches while other threads read: reactions see consistent values, the last one is the final state"
    )
    func concurrentChangesAndReads() {
        let writers = 2
        let rounds = 200
        let gauges = (0..<writers).map { _ in Gauge() }
        let offsets = (0..<writers).map { _ in Stored(0) }
        // One diamond per writer: `left` reads the gauge and the offset, `right` the offset only.
        let bottoms = (0..<writers).map { index in
            let left = Computed { offsets[index].value + tracked { gauges[index].reading } }
            let right = Computed { offsets[index].value * 1000 }
            return Computed { left.value + right.value }
        }
        let seen = (0..<writers).map { _ in Recorder<Int>() }
        let reactions = (0..<writers).map { index in observe { seen[index].append(bottoms[index].value) } }
        let total = Computed { tracked { gauges.reduce(0) { $0 + $1.reading } } }
        runOnThreads(writers + 1) { thread in
            if thread == writers {
                // A reader: evaluates the values while the writers change them.
                for _ in 0..<rounds {
                    for bottom in bottoms { _ = bottom.value }
                    _ = total.value
                }
                return
            }
            for round in 1...rounds {
                batch {
                    offsets[thread].value = round
                    gauges[thread].set(round)
                }
            }
        }
        for index in 0..<writers {
            let values = seen[index].all
            // Each run saw an offset and a gauge reading from the same batch: 1002 × round.
            #expect(values.allSatisfy { $0 % 1002 == 0 }, "\(values.filter { $0 % 1002 != 0 }.prefix(5))")
            #expect(values == values.sorted())
            #expect(values.last == 1002 * rounds)
            #expect(bottoms[index].value == 1002 * rounds)
        }
        #expect(total.value == writers * rounds)
        reactions.forEach { $0.cancel() }
    }

    @Test("a model changed on its actor reaches an actor-bound reaction, after the change", .timeLimit(.minutes(5)))
    func changeOnAnActor() async {
        let boiler = Boiler()
        let (runs, continuation) = AsyncStream.makeStream(of: Int.self)
        let reaction = observe(on: boiler) { boiler in
            continuation.yield(tracked { boiler.thermostat.target })
        }
        var iterator = runs.makeAsyncIterator()
        #expect(await iterator.next() == 20)
        await boiler.set(70)
        #expect(await iterator.next() == 70)
        await boiler.set(75)
        #expect(await iterator.next() == 75)
        reaction.cancel()
    }

    @Test(
        "a change made by a derivation (which it must not make) is reported once the read that ran it is over",
        .timeLimit(.minutes(5)))
    func changeInsideDerivation() async {
        let thermostat = Thermostat()
        let (runs, continuation) = AsyncStream.makeStream(of: Int.self)
        let reaction = observe { continuation.yield(tracked { thermostat.target }) }
        var iterator = runs.makeAsyncIterator()
        #expect(await iterator.next() == 20)
        let misbehaving = Computed {
            thermostat.target = 33; return 1
        }
        #expect(misbehaving.value == 1)
        #expect(await iterator.next() == 33)
        reaction.cancel()
    }

    @Test("Ripple values read inside tracked { } are tracked by Ripple only, not also by Observation")
    func rippleReadsRegisterOnce() {
        let thermostat = Thermostat()
        let offset = Stored(0)
        let runs = Counter()
        let reaction = observe {
            _ = tracked { offset.value + thermostat.target }
            runs.increment()
        }
        offset.value = 1
        offset.value = 2
        #expect(runs.value == 3)
        #expect(
            _graph.withLock { held in offset._changedObservationSubject(held) } == nil,
            "the reads did not arm Observation")
        reaction.cancel()
    }

    @Test("re-evaluations for Ripple's reasons do not pile up registrations: one change is reported once")
    func registrationsDoNotPileUp() throws {
        let thermostat = Thermostat()
        let offset = Stored(0)
        let sum = Computed { tracked { thermostat.target } + offset.value }
        let reaction = observe { _ = sum.value }
        for next in 1...50 { offset.value = next }
        batch { thermostat.target = 21 }
        let source = try #require(_graph.withLock { held in _graph.externalSource(of: sum.node, held) })
        #expect(_graph.withLock { source.changesReported } == 1)
        #expect(sum.value == 71)
        reaction.cancel()
    }

    @Test("nested tracked { } blocks of one derivation register once")
    func nestedScopes() throws {
        let thermostat = Thermostat()
        let sum = Computed { tracked { tracked { thermostat.target } + thermostat.target } }
        let reaction = observe { _ = sum.value }
        batch { thermostat.target = 21 }
        #expect(sum.value == 42)
        let source = try #require(_graph.withLock { held in _graph.externalSource(of: sum.node, held) })
        #expect(_graph.withLock { source.changesReported } == 1)
        reaction.cancel()
    }

    @Test("re-evaluating to an equal value is cut off: readers downstream do not run")
    func cutOffByEquality() {
        let thermostat = Thermostat()
        let isWarm = Computed { tracked { thermostat.target } > 25 }
        let runs = Counter()
        let reaction = observe {
            _ = isWarm.value; runs.increment()
        }
        batch { thermostat.target = 21 }
        #expect(runs.value == 1)
        batch { thermostat.target = 30 }
        #expect(runs.value == 2)
        reaction.cancel()
    }

    @Test("re-evaluating to an equal value tells an enclosing withObservationTracking nothing")
    func equalValueIsSilentToEnclosingScope() throws {
        let thermostat = Thermostat()
        let offset = Stored(0)
        // Depends on `offset` without changing with it: each write re-evaluates it, equal.
        let isWarm = Computed { tracked { thermostat.target } + offset.value * 0 > 25 }
        let fired = Counter()
        // First evaluated inside the enclosing scope, which Observation merges its reads into.
        _ = withObservationTracking {
            isWarm.value
        } onChange: {
            fired.increment()
        }
        offset.value = 1
        offset.value = 2
        #expect(fired.value == 0, "the computed value did not change, and no model property did")
        #expect(isWarm.value == false)
        thermostat.target = 30
        #expect(fired.value == 1, "a property it read changed")
        #expect(isWarm.value == true)
        let source = try #require(_graph.withLock { held in _graph.externalSource(of: isWarm.node, held) })
        #expect(_graph.withLock { source.changesReported } == 1, "the replaced registrations report nothing")
    }

    @Test("releasing a computed value first evaluated inside an enclosing scope tells that scope nothing")
    func releaseIsSilentToEnclosingScope() {
        let thermostat = Thermostat()
        let fired = Counter()
        weak var released: Computed<Int>?
        do {
            let doubled = Computed { tracked { thermostat.target } * 2 }
            released = doubled
            _ = withObservationTracking {
                doubled.value
            } onChange: {
                fired.increment()
            }
        }
        #expect(released == nil)
        #expect(fired.value == 0)
        thermostat.target = 30
        #expect(fired.value == 1, "Observation merged the model property it read into the scope")
    }

    @Test("a computed value re-evaluated to an equal value inside a reaction's tracked { } does not run the reaction")
    func equalValueIsSilentToEnclosingReaction() {
        let thermostat = Thermostat()
        let offset = Stored(0)
        let isWarm = Computed { tracked { thermostat.target } + offset.value * 0 > 25 }
        let runs = Counter()
        let reaction = observe {
            _ = tracked { isWarm.value }
            runs.increment()
        }
        offset.value = 1
        offset.value = 2
        #expect(runs.value == 1)
        batch { thermostat.target = 30 }
        #expect(runs.value == 2)
        reaction.cancel()
    }

    @Test("inside untracked { }, tracked { } only runs its body")
    func untrackedWins() {
        let thermostat = Thermostat()
        let evaluations = Counter()
        let snapshot = Computed {
            evaluations.increment(); return untracked { tracked { thermostat.target } }
        }
        let reaction = observe { _ = snapshot.value }
        batch { thermostat.target = 21 }
        #expect(snapshot.value == 20)
        #expect(evaluations.value == 1)
        #expect(tracked { thermostat.target } == 21, "at top level: just the body")
        reaction.cancel()
    }

    @Test("Ripple values read inside untracked { } within tracked { } stay untracked")
    func untrackedInsideTracked() {
        let thermostat = Thermostat()
        let offset = Stored(0)
        let evaluations = Counter()
        let sum = Computed {
            evaluations.increment()
            return tracked { thermostat.target + untracked { offset.value } }
        }
        let runs = Counter()
        let reaction = observe {
            _ = tracked { untracked { offset.value } + thermostat.target }
            runs.increment()
        }
        #expect(sum.value == 20)
        offset.value = 1
        #expect(sum.value == 20)
        #expect(evaluations.value == 1)
        #expect(runs.value == 1)
        #expect(
            _graph.withLock { held in offset._changedObservationSubject(held) } == nil,
            "the untracked reads did not arm Observation")
        batch { thermostat.target = 21 }
        #expect(sum.value == 22)
        #expect(runs.value == 2)
        reaction.cancel()
    }

    @Test("a computed value reading an @Observable model keeps neither the model nor itself alive once released")
    func noLeaks() {
        weak var weakThermostat: Thermostat?
        weak var weakComputed: Computed<Int>?
        var thermostat: Thermostat? = Thermostat()
        weakThermostat = thermostat
        do {
            let captured = thermostat!
            let doubled = Computed { tracked { captured.target } * 2 }
            weakComputed = doubled
            #expect(doubled.value == 40)
            let reaction = observe { _ = doubled.value }
            batch { captured.target = 21 }
            #expect(doubled.value == 42)
            reaction.cancel()
        }
        #expect(weakComputed == nil, "the model's registration does not keep the computed value alive")
        thermostat = nil
        #expect(weakThermostat == nil)
    }
}
