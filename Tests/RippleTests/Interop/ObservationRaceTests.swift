#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Observation
import Testing
@testable import Ripple

/// A write that lands between Ripple's read and Observation's installation of the tracking
/// must not leave the registration deaf to every later change.
@Suite("Observation interop: writes racing the registration")
struct ObservationRaceTests {
    @Test("a Stored written by the tracked body still reports the next change")
    func storedWrittenInsideBody() {
        let value = Stored(0)
        let fired = Counter()
        withObservationTracking {
            _ = value.value
            value.value += 1
        } onChange: {
            fired.increment()
        }
        // A plain write: `+=` would read first, and a read arms the node again.
        value.value = 10
        #expect(fired.value == 1)
    }

    @Test("a Computed whose source the tracked body writes still reports the next change")
    func computedSourceWrittenInsideBody() {
        let value = Stored(0)
        let doubled = Computed { value.value * 2 }
        let fired = Counter()
        withObservationTracking {
            _ = doubled.value
            value.value += 1
        } onChange: {
            fired.increment()
        }
        // A plain write: `+=` would read first, and a read arms the node again.
        value.value = 10
        #expect(fired.value == 1)
    }

    @Test("every later change is reported, not only the first after a read")
    func everyLaterRegistrationHears() {
        let value = Stored(0)
        let doubled = Computed { value.value * 2 }
        // Reads that register nothing, then a change: later registrations still hear.
        _ = value.value
        _ = doubled.value
        value.value = 1
        for round in 2...4 {
            let storedFired = Counter()
            let computedFired = Counter()
            withObservationTracking {
                _ = value.value
            } onChange: {
                storedFired.increment()
            }
            withObservationTracking {
                _ = doubled.value
            } onChange: {
                computedFired.increment()
            }
            value.value = round
            #expect(storedFired.value == 1)
            #expect(computedFired.value == 1)
        }
    }

    @Test("a write from another thread while the tracked body runs does not deafen the registration")
    func otherThreadWritesDuringBody() {
        let value = Stored(0)
        let source = Stored(0)
        let doubled = Computed { source.value * 2 }
        let storedFired = Counter()
        let computedFired = Counter()
        withObservationTracking {
            _ = value.value
            onAnotherThread { value.value = 1 }
        } onChange: {
            storedFired.increment()
        }
        withObservationTracking {
            _ = doubled.value
            onAnotherThread { source.value = 1 }
        } onChange: {
            computedFired.increment()
        }
        value.value = 2
        source.value = 2
        #expect(storedFired.value == 1)
        #expect(computedFired.value == 1)
    }

    @Test("a Computed re-evaluated to an equal value still reports nothing")
    func computedCutOffKept() {
        let value = Stored(1)
        let parity = Computed { value.value % 2 }
        let fired = Counter()
        withObservationTracking {
            _ = parity.value
            value.value = 3  // equal parity: not a change
        } onChange: {
            fired.increment()
        }
        value.value = 5
        #expect(fired.value == 0, "the computed value did not change")
        value.value = 6
        #expect(fired.value == 1)
    }

    /// Registrations on four threads while four others write the value being registered;
    /// after all threads are joined, one more write to every value: every registration must
    /// have heard a change. A registrar-backed `Observable` (what the `@Observable` macro
    /// expands to) is the control.
    @Test("under concurrent writers every registration hears a later change, as with @Observable")
    func churn() {
        let stored = (0..<churnValueCount).map { _ in Stored(0) }
        let storedMissed = runChurn(read: { _ = stored[$0].value }, write: { stored[$0].value = $1 })
        let sources = (0..<churnValueCount).map { _ in Stored(0) }
        let derived = sources.map { source in Computed { source.value &* 2 } }
        let computedMissed = runChurn(read: { _ = derived[$0].value }, write: { sources[$0].value = $1 })
        let control = (0..<churnValueCount).map { _ in ObservableControl() }
        let controlMissed = runChurn(read: { _ = control[$0].value }, write: { control[$0].value = $1 })
        #expect(controlMissed == 0, "the @Observable control: registrations never notified")
        #expect(storedMissed == 0, "Stored: registrations never notified")
        #expect(computedMissed == 0, "Computed: registrations never notified")
    }
}

/// Runs `body` on a new thread and waits for it.
private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphoreLike()
    Thread.detachNewThreadLike {
        body()
        done.signal()
    }
    done.wait()
}

/// Reader-writer pairs in a churn.
private let churnPairs = 4
/// Registrations each reader makes, one per value.
private let churnRegistrations = 1_000
/// Writes a writer makes at most while its reader registers one value.
private let churnWritesPerRegistration = 1_000
/// Values a churn uses: one per registration.
private let churnValueCount = churnPairs * churnRegistrations

/// Four pairs of threads. Each reader registers its values one after the other, each read
/// inside `withObservationTracking`, and publishes how far it got; its writer keeps writing
/// the value being registered (a bounded number of times) until the reader moves on. After
/// all threads are joined, one more write to each value. Returns how many registrations
/// never heard a change.
private func runChurn(read: @escaping @Sendable (Int) -> Void, write: @escaping @Sendable (Int, Int) -> Void) -> Int {
    // One flag per registration (Observation may call a registration's onChange more than
    // once when writers race, so a total would hide a registration that never fired).
    let heard = (0..<churnValueCount).map { _ in Counter() }
    var finished: [DispatchSemaphoreLike] = []
    for pair in 0..<churnPairs {
        let readerDone = DispatchSemaphoreLike()
        let writerDone = DispatchSemaphoreLike()
        finished += [readerDone, writerDone]
        let first = pair * churnRegistrations
        let progress = Counter()
        Thread.detachNewThreadLike {
            for index in first..<(first + churnRegistrations) {
                let flag = heard[index]
                withObservationTracking {
                    read(index)
                } onChange: {
                    flag.increment()
                }
                progress.increment()
            }
            readerDone.signal()
        }
        Thread.detachNewThreadLike {
            var written = 1
            while true {
                let registered = progress.value
                guard registered < churnRegistrations else { break }
                for _ in 0..<churnWritesPerRegistration where progress.value == registered {
                    write(first + registered, written)
                    written += 1
                }
                // Bounded: once its writes are spent, wait for the reader (no more writes).
                while progress.value == registered { sched_yield() }
            }
            writerDone.signal()
        }
    }
    for done in finished { done.wait() }
    for index in 0..<churnValueCount { write(index, -1) }
    return heard.filter { $0.value == 0 }.count
}
/// What `@Observable` generates for one property (`access` on read, `withMutation` on write),
/// with the storage behind a lock so that concurrent access is not a data race.
private final class ObservableControl: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    private let lock = _Lock()
    private var storage = 0

    var value: Int {
        get {
            registrar.access(self, keyPath: \.value)
            return lock.withLock { storage }
        }
        set {
            registrar.withMutation(of: self, keyPath: \.value) {
                lock.withLock { storage = newValue }
            }
        }
    }
}
