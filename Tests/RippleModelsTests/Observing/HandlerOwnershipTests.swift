import Ripple
import Testing
@testable import RippleModels

/// A reaction created inside an update handler belongs to whoever holds its subscription: the
/// handler running again (or being cancelled) does not stop it.
@Suite("Handlers do not own what they create")
struct HandlerOwnershipTests {
    /// Registers a handler on `trigger` with `register`, whose handler calls `create` on each
    /// call; checks that the reaction made on the first call survives the later calls.
    private func expectHandlerOwnsNothing(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ register: (_ trigger: Stored<Int>, _ create: @escaping @Sendable () -> Void) -> Subscription
    ) {
        let trigger = Stored(0)
        let source = Stored(0)
        let seen = Log<Int>()
        let kept = Log<Subscription>()
        let handler = register(trigger) {
            if kept.count == 0 { kept.append(observe { seen.append(source.value) }) }
        }
        trigger.value = 1
        trigger.value = 2  // the handler runs again
        source.value = 1
        #expect(
            seen.all == [0, 1], "the token is still held, so the reaction still runs", sourceLocation: sourceLocation)
        handler.cancel()
        source.value = 2
        #expect(seen.all == [0, 1, 2], sourceLocation: sourceLocation)
        for subscription in kept.all { subscription.cancel() }
    }

    @Test("didUpdate with the new value")
    func didUpdateNew() {
        expectHandlerOwnsNothing { trigger, create in trigger.didUpdate { _ in create() } }
    }

    @Test("didUpdate with the old and the new value")
    func didUpdateOldNew() {
        expectHandlerOwnsNothing { trigger, create in trigger.didUpdate { _, _ in create() } }
    }

    @Test("didUpdate withCurrent, created on the first, immediate call")
    func didUpdateWithCurrent() {
        expectHandlerOwnsNothing { trigger, create in trigger.didUpdate(withCurrent: true) { _ in create() } }
    }

    @Test("didChange with the new value")
    func didChangeNew() {
        expectHandlerOwnsNothing { trigger, create in trigger.didChange { _ in create() } }
    }

    @Test("didChange with the old and the new value")
    func didChangeOldNew() {
        expectHandlerOwnsNothing { trigger, create in trigger.didChange { _, _ in create() } }
    }

    @Test("didChange(comparing:)")
    func didChangeComparing() {
        expectHandlerOwnsNothing { trigger, create in trigger.didChange(comparing: \.self) { _ in create() } }
    }

    @Test("didChange(comparing:) with the old and the new value")
    func didChangeComparingOldNew() {
        expectHandlerOwnsNothing { trigger, create in trigger.didChange(comparing: \.self) { _, _ in create() } }
    }

    @Test("didChange on a pair of a compound")
    func didChangeOnCompound() {
        expectHandlerOwnsNothing { trigger, create in
            compound(trigger, Stored("x")).didChange { (_: Int, _: String) in create() }
        }
    }

    @Test("didChange on a binding to a model property")
    func didChangeOnBinding() {
        let model = ViewModel()
        expectHandlerOwnsNothing { trigger, create in
            let mirror = trigger.didUpdate { model.count = $0 }
            let handler = model.bindings.count.didChange { _ in create() }
            return Subscription {
                mirror.cancel(); handler.cancel()
            }
        }
    }

    @Test("Updater.onTransition")
    func updaterOnTransition() {
        let updater = Updater()
        expectHandlerOwnsNothing { trigger, create in updater.onTransition(trigger) { _, _ in create() } }
    }

    @Test("Updater.keepUpToDate(dependencies:)")
    func updaterKeepUpToDateWithDependencies() {
        let updater = Updater()
        expectHandlerOwnsNothing { trigger, create in updater.keepUpToDate(dependencies: [trigger]) { create() } }
    }

    @Test("Updater.bind: a setter that starts a reaction")
    func updaterBind() {
        final class Target: @unchecked Sendable {
            let create: @Sendable () -> Void
            init(_ create: @escaping @Sendable () -> Void) { self.create = create }
            var value = 0 { didSet { create() } }
        }
        let updater = Updater()
        let targets = Log<Target>()
        expectHandlerOwnsNothing { trigger, create in
            let target = Target(create)
            targets.append(target)
            return updater.bind(target, \.value, to: trigger)
        }
    }

    @Test("Updater.keepUpToDate { } is an observe body: it owns the reactions it creates")
    func updaterKeepUpToDateOwns() {
        let updater = Updater()
        let trigger = Stored(0)
        let source = Stored(0)
        let seen = Log<Int>()
        let kept = Log<Subscription>()
        updater.keepUpToDate {
            _ = trigger.value
            if kept.count == 0 { kept.append(observe { seen.append(source.value) }) }
        }
        trigger.value = 1
        source.value = 1
        #expect(seen.all == [0])
        #expect(kept.all.first?.isCancelled == true)
    }
}
