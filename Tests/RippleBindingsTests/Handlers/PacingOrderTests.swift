import Ripple
import RippleBindings
import RippleModels
import RippleTesting
import Testing

/// The order of a paced binding's writes when a timer's write is still under way: a flush
/// (the binding ends) or another timer must not write a newer edit before it, nor return
/// before it is written.
///
/// Each test holds the timer's write of one edit inside the handler's `reverse` (which runs
/// on the way to the model, before the write) until a gate opens, and makes the flush from a
/// plain thread: after the fix that flush waits for the held write, so the gate also opens by
/// itself after `grace` milliseconds. That bound only decides how long a fixed build waits;
/// before the fix the flush returns at once and the gate is opened after it.
///
/// Serialized: each test blocks one of the cooperative pool's threads while a write is held,
/// and several at once could block them all, the tests' own tasks included.
@Suite(.serialized) struct PacingOrderTests {
    /// How long a held write waits for its gate at most (the timer's thread, one of the
    /// cooperative pool's, is blocked that long in a fixed build).
    static let grace = 300

    /// A handler that records each value on its way to the model, holding `held` (opening
    /// `reached` first) until `release` opens or `grace` passes.
    static func recording(
        _ log: Locked<[String]>,
        holding held: String,
        reached: Gate,
        release: Gate,
        _ pace: (BindingHandler<String, String>) -> BindingHandler<String, String>
    ) -> BindingHandler<String, String> {
        pace(
            .transform(
                { $0 },
                reverse: { value in
                    if value == held {
                        reached.open()
                        release.wait(milliseconds: grace)
                    }
                    log.mutate { $0.append("write \(value)") }
                    return value
                }))
    }

    @Test("unbind waits for the edit a timer is writing: no edit is written after it returns")
    func unbindWaitsForTheTimersWrite() async {
        let clock = TestClock()
        let query = Stored("")
        let log = Locked<[String]>([])
        let reached = Gate(), release = Gate()
        let handler = Self.recording(log, holding: "a", reached: reached, release: release) {
            $0.debounce(for: .milliseconds(10), clock: clock)
        }
        let (field, property, _) = bound(handler, to: query)
        field.type("a")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(10))
        #expect(await eventually { reached.isOpen })  // the timer took "a"; its write is held

        let seenOnReturn = await onNewThread {
            property.unbind()
            log.mutate { $0.append("unbind returned") }
            release.open()
            return query.value
        }
        #expect(await eventually { log.value.count == 2 })
        #expect(log.value == ["write a", "unbind returned"])
        #expect(seenOnReturn == "a")
        #expect(query.value == "a")
    }

    @Test("an edit flushed while a timer writes an older one is written after it, and the model keeps it")
    func flushWritesAfterTheTimersWrite() async {
        let clock = TestClock()
        let query = Stored("")
        let log = Locked<[String]>([])
        let reached = Gate(), release = Gate()
        let handler = Self.recording(log, holding: "old", reached: reached, release: release) {
            $0.debounce(for: .milliseconds(10), clock: clock)
        }
        let (field, property, _) = bound(handler, to: query)
        field.type("old")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(10))
        #expect(await eventually { reached.isOpen })  // the timer took "old"; its write is held

        let seenOnReturn = await onNewThread {
            field.type("new")  // waits in the debounce
            property.unbind()  // writes it
            return query.value
        }
        release.open()
        #expect(await eventually { log.value.count == 2 })
        #expect(log.value == ["write old", "write new"])
        #expect(seenOnReturn == "new")
        #expect(query.value == "new")
    }

    @Test("a timer that fires while an older edit's write is held writes its edit after it")
    func laterTimerWritesAfterTheHeldWrite() async {
        let clock = TestClock()
        let query = Stored("")
        let log = Locked<[String]>([])
        let reached = Gate(), release = Gate()
        let handler = Self.recording(log, holding: "old", reached: reached, release: release) {
            $0.throttle(for: .milliseconds(10), clock: clock)
        }
        let (field, property, _) = bound(handler, to: query)
        field.type("old")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(10))
        #expect(await eventually { reached.isOpen })  // the first timer took "old"; its write is held

        field.type("new")  // opens the next window
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(10))
        // The second timer has fired (or will): give it the time to write, as it did before
        // the fix, then let the held write go on.
        _ = await eventually(2_000) { log.value.contains("write new") }
        release.open()
        #expect(await eventually { log.value.count == 2 })
        #expect(log.value == ["write old", "write new"])
        #expect(await eventually { query.value == "new" })
        withExtendedLifetime(property) {}
    }

    @Test("a reaction to a paced write may edit and end the binding on the writing thread")
    func reentrantFlushFromTheWrite() async {
        let clock = TestClock()
        let query = Stored("")
        let log = Locked<[String]>([])
        let (field, property, _) = bound(
            .transform(
                { $0 },
                reverse: { value in
                    log.mutate { $0.append("write \(value)") }
                    return value
                }
            )
            .debounce(for: .milliseconds(10), clock: clock),
            to: query)
        let reaction = query.didUpdate { [weak property] value in
            guard value == "a" else { return }
            field.type("b")
            property?.unbind()
        }
        field.type("a")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(10))
        // A write made inside a reaction reaches the model once the reaction has run.
        #expect(await eventually { !property.isBound && query.value == "b" })
        #expect(log.value == ["write a", "write b"])
        await clock.run()
        #expect(log.value == ["write a", "write b"])
        withExtendedLifetime(reaction) {}
    }
}
