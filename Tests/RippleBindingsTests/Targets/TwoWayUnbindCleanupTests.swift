import Ripple
import RippleBindings
import RippleModels
import Testing

/// The cleanup a two-way binding runs, exactly once, whichever way it ends.
@Suite struct TwoWayUnbindCleanupTests {
    @Test("unbind() runs the binding's cleanup once")
    func unbindRunsCleanup() {
        let field = FakeField()
        let property = editableProperty(of: field)
        let cleanups = Locked(0)
        property.bind(Stored("a"), onUnbind: { cleanups.mutate { $0 += 1 } })
        #expect(cleanups.value == 0)
        property.unbind()
        #expect(cleanups.value == 1)
        property.unbind()
        #expect(cleanups.value == 1)
    }

    @Test("binding again runs the previous binding's cleanup once, not the new one's")
    func rebindRunsPreviousCleanup() {
        let field = FakeField()
        let property = editableProperty(of: field)
        let first = Locked(0), second = Locked(0)
        property.bind(Stored("a"), .identity, onUnbind: { first.mutate { $0 += 1 } })
        property.bind(ValueBinding(Stored("b")), onUnbind: { second.mutate { $0 += 1 } })
        #expect(first.value == 1)
        #expect(second.value == 0)
        #expect(field.text == "b")
        property.bind(Stored("c"))
        #expect(first.value == 1)
        #expect(second.value == 1)
    }

    @Test("cancelling the returned subscription runs the cleanup once")
    func cancelRunsCleanup() {
        let field = FakeField()
        let property = editableProperty(of: field)
        let cleanups = Locked(0)
        let subscription = property.bind(Stored("a"), onUnbind: { cleanups.mutate { $0 += 1 } })
        subscription.cancel()
        #expect(cleanups.value == 1)
        #expect(!property.isBound)
        subscription.cancel()
        property.unbind()
        #expect(cleanups.value == 1)
    }

    @Test("releasing the property runs the cleanup once")
    func releaseOfPropertyRunsCleanup() {
        let field = FakeField()
        let cleanups = Locked(0)
        let model = Stored("a")
        var property: TwoWayBindableProperty<String>? = editableProperty(of: field)
        let subscription = property?.bind(model, onUnbind: { cleanups.mutate { $0 += 1 } })
        property = nil
        #expect(cleanups.value == 1)
        subscription?.cancel()
        #expect(cleanups.value == 1)
    }

    @Test("once the target is released, the binding ends with the next value, and the cleanup runs once")
    func releaseOfTargetRunsCleanup() {
        let cleanups = Locked(0)
        let model = Stored("a")
        var field: FakeField? = FakeField()
        let property = TwoWayBindableProperty<String>(field!, get: { $0.text }, set: { $0.set($1) })
        property.bind(model, onUnbind: { cleanups.mutate { $0 += 1 } })
        field = nil
        model.value = "b"
        #expect(!property.isBound)
        #expect(cleanups.value == 1)
        model.value = "c"
        property.unbind()
        #expect(cleanups.value == 1)
    }

    @Test("the cleanup runs with no lock held: it may use the property")
    func cleanupMayUseTheProperty() {
        let field = FakeField()
        let property = editableProperty(of: field)
        let seen = Locked<[Bool]>([])
        let later = Stored("later")
        property.bind(
            Stored("a"),
            onUnbind: { [weak property] in
                seen.mutate { $0.append(property?.isBound ?? true) }
                property?.bind(later)
            })
        property.unbind()
        #expect(seen.value == [false])
        #expect(field.text == "later")
        #expect(property.isBound)
    }

    @Test("a paced edit still waiting is written before the cleanup runs")
    func pendingEditIsWrittenBeforeCleanup() {
        let field = FakeField()
        let property = editableProperty(of: field)
        let model = Stored("a")
        let seenAtCleanup = Locked<String?>(nil)
        property.bind(
            ValueBinding(model), BindingHandler<String, String>.identity.debounce(for: .seconds(60)),
            onUnbind: {
                seenAtCleanup.value = untracked { model.value }
            })
        field.type("typed")
        #expect(model.value == "a")
        property.unbind()
        #expect(seenAtCleanup.value == "typed")
    }
}
