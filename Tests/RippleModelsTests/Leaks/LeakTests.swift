@testable import Ripple
import Testing
@testable import RippleModels

/// Every type in RippleModels lets go of everything once its owners and observers do.
@Suite("RippleModels ownership and leaks")
struct ModelLeakTests {
    @Test("a model, its bindings and their handlers are freed after the observers go")
    func modelAndBindings() {
        weak var weakModel: ViewModel?
        var observers: [Subscription] = []
        do {
            let model = ViewModel()
            weakModel = model
            let width = model.bindings.frame.size.width
            width.didChange { _ in }.add(to: &observers)
            compound(width, model.bindings.name).didUpdate { _ in }.add(to: &observers)
            model.bindings.count.map { $0 > 1 }.didChange { _ in }.add(to: &observers)
            model.bindings.name.externallyUpdating().didUpdate { _ in }.add(to: &observers)
            width.value = 3
        }
        #expect(weakModel != nil, "the handlers hold the model through their bindings")
        observers.removeAll()
        #expect(weakModel == nil)
    }

    @Test("an updater frees its reactions and their captures when released")
    func updater() {
        final class Token: Sendable {}
        let source = Stored(0)
        weak var weakToken: Token?
        weak var weakUpdater: Updater?
        do {
            let token = Token()
            weakToken = token
            let updater = Updater()
            weakUpdater = updater
            updater.keepUpToDate {
                _ = token; _ = source.value
            }
            updater.onTransition(source) { _, _ in _ = token }
            updater.bind(Label(), \.text, to: Computed { "\(source.value)" })
            updater.pause()
            source.value = 1
        }
        #expect(weakUpdater == nil)
        #expect(weakToken == nil)
        #expect(!source.hasObserversForTesting)
    }

    @Test("Yoyo properties are freed with their owners and leave their sources unobserved")
    func properties() async {
        let source = Stored(1)
        weak var weakTentative: Tentative<Int>?
        weak var weakConnectable: Connectable<Int>?
        weak var weakPassThrough: PassThrough<Int>?
        weak var weakManual: ManuallyRecalculated<Int>?
        weak var weakFlattened: Computed<Int>?
        weak var weakElements: Computed<[Stored<Int>]>?
        do {
            let tentative = Tentative(source, clock: ManualClock())
            tentative.setTentative(5, timeout: .seconds(60))  // a pending timeout
            let connectable = Connectable(connectedTo: source)
            let passThrough = PassThrough(source)
            let manual = ManuallyRecalculated { 1 }
            let holder = Stored(source)
            let flattened = holder.flatMap { $0 }
            let elements = Stored([source]).observingElements { $0.value }
            weakTentative = tentative
            weakConnectable = connectable
            weakPassThrough = passThrough
            weakManual = manual
            weakFlattened = flattened
            weakElements = elements
            let bag = SubscriptionBag {
                tentative.didChange { _ in }
                connectable.didChange { _ in }
                passThrough.didChange { _ in }
                manual.didChange { _ in }
                flattened.didChange { _ in }
                elements.didUpdate { _ in }
            }
            source.value = 2
            _ = bag
        }
        #expect(weakTentative == nil)
        #expect(weakConnectable == nil)
        #expect(weakPassThrough == nil)
        #expect(weakManual == nil)
        #expect(weakFlattened == nil)
        #expect(weakElements == nil)
        #expect(!source.hasObserversForTesting)
    }

    @Test("a persisted value is freed with its owner")
    func persisted() {
        weak var weakPersisted: Persisted<Int>?
        do {
            let persisted = Persisted("n", default: 0, store: MemoryStore())
            weakPersisted = persisted
            let observer = persisted.didChange { _ in }
            persisted.value = 1
            _ = observer
        }
        #expect(weakPersisted == nil)
    }
}
