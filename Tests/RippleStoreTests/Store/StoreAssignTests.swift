import RippleStore
import Testing

/// Verge's `assign(to:)` and `assignee(_:)`: one store's state (or a derived value) written into
/// another store's field on every change.
@Suite("Store: assign(to:) and assignee(_:)")
struct StoreAssignTests {
    private struct Source: Equatable, Sendable {
        var count = 0
        var name = ""
    }

    private struct Target: Equatable, Sendable {
        var count = 0
        var optionalCount: Int?
        var mirror = Source()
        var other = ""
    }

    @Test("a derived value assigned to another store's field: at once, then on every change")
    func derivedToField() {
        let source = Store<Source, Never>(initialState: Source(count: 3))
        let target = Store<Target, Never>(initialState: Target())
        let subscription = source.derived(\.count).assign(to: target.assignee(\.count))
        #expect(target.currentState.count == 3)
        source.commit { $0.count = 4 }
        #expect(target.currentState.count == 4)
        source.commit { $0.name = "unrelated" }
        #expect(target.currentState.count == 4)
        #expect(target.version == 2)
        subscription.cancel()
        source.commit { $0.count = 5 }
        #expect(target.currentState.count == 4)
    }

    @Test("a store's whole state assigned to a field of another store")
    func storeToField() {
        let source = Store<Source, Never>(initialState: Source(count: 1, name: "a"))
        let target = Store<Target, Never>(initialState: Target())
        let subscription = source.assign(to: target.assignee(\.mirror))
        #expect(target.currentState.mirror == Source(count: 1, name: "a"))
        source.commit { $0.name = "b" }
        #expect(target.currentState.mirror == Source(count: 1, name: "b"))
        _ = subscription
    }

    @Test("a non-optional value assigned to an optional field")
    func toOptionalField() {
        let source = Store<Source, Never>(initialState: Source(count: 7))
        let target = Store<Target, Never>(initialState: Target())
        let subscription = source.derived(\.count).assign(to: target.assignee(\.optionalCount))
        #expect(target.currentState.optionalCount == 7)
        source.commit { $0.count = 8 }
        #expect(target.currentState.optionalCount == 8)
        _ = subscription
    }

    @Test("an unchanged value is not written again (Verge's dropsOutput for Equatable values)")
    func unchangedIsNotWritten() {
        let target = Store<Target, Never>(initialState: Target(count: 1))
        let assign: @Sendable (Changes<Int>) -> Void = target.assignee(\.count)
        target.commit { $0.count = 99 }
        // The same value as before: a store's sink that delivers an unrelated change.
        assign(Changes(previous: 5, current: 5))
        #expect(target.currentState.count == 99)
        assign(Changes(previous: 5, current: 6))
        #expect(target.currentState.count == 6)
    }

    @Test("a plain-value assignee commits every value it is given")
    func plainValueAssignee() {
        let target = Store<Target, Never>(initialState: Target())
        let assign: @Sendable (String) -> Void = target.assignee(\.other)
        assign("x")
        #expect(target.currentState.other == "x")
    }

    @Test("the assignee does not keep its store alive; writes after the store is gone are dropped")
    func assigneeDoesNotRetain() {
        let source = Store<Source, Never>(initialState: Source())
        var target: Store<Target, Never>? = Store<Target, Never>(initialState: Target())
        weak let weakTarget = target
        let subscription = source.derived(\.count).assign(to: target!.assignee(\.count))
        target = nil
        #expect(weakTarget == nil)
        source.commit { $0.count = 1 }
        _ = subscription
    }

    @Test("the commit is named after the key path and the call site")
    func transactionName() {
        let source = Store<Source, Never>(initialState: Source())
        let target = Store<Target, Never>(initialState: Target())
        let names = Recorder<String>()
        let sink = target.sinkState(dropsFirst: true) { names.append($0.transaction.name ?? "") }
        let subscription = source.derived(\.count).assign(to: target.assignee(\.count))
        source.commit { $0.count = 2 }
        #expect(names.values.count == 1)
        #expect(names.values.allSatisfy { $0.contains("assign") })
        _ = (sink, subscription)
    }
}
