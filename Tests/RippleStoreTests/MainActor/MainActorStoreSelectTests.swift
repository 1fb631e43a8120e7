import Ripple
import RippleStore
import Testing

/// A main-actor store's state, not `Sendable`.
private struct SelectRows: Equatable {
    var titles = ["a", "b", "c"]
    var count = 0
}

private final class SelectCapture {
    let onRelease: () -> Void
    init(_ onRelease: @escaping () -> Void) { self.onRelease = onRelease }
    deinit { onRelease() }
}

/// Issue 37: a main-actor store's closure selectors run once per commit that changes the
/// state, on the main actor, and only those whose result changed are delivered, with the state.
@MainActor
@Suite("MainActorStore.select: closure selectors")
struct MainActorStoreSelectTests {
    @Test("each selector runs once per commit; only the changed one is delivered")
    func onlyTheChangedOneIsDelivered() {
        let store = MainActorStore<SelectRows, Never>(initialState: SelectRows())
        var ran = 0
        var delivered: [String] = []
        let rows = (0..<3).map { index in
            store.select { state in
                ran += 1
                return state.titles[index]
            }
        }
        let subscriptions = rows.map { row in row.onChange { _, new in delivered.append(new) } }
        #expect(rows.map(\.value) == ["a", "b", "c"])
        ran = 0
        store.commit { $0.titles[1] = "B" }
        #expect(ran == 3)
        #expect(delivered == ["B"])
        store.commit { $0.count += 1 }
        #expect(ran == 6)
        #expect(delivered == ["B"])
        store.commit { $0.count = 1 }
        #expect(ran == 6, "a commit that changes nothing runs no selector")
        // `onChange` does not keep its value alive: the values are kept to the end.
        withExtendedLifetime((rows, subscriptions)) {}
    }

    @Test("a reaction reading the state and a selector sees them agree, once per commit")
    func consistentWithTheState() {
        let store = MainActorStore<SelectRows, Never>(initialState: SelectRows())
        let doubled = store.select { $0.count * 2 }
        let count = store.derived(\.count)
        var seen: [[Int]] = []
        let reaction = observeOnMainActor { seen.append([count.value, doubled.value]) }
        for _ in 0..<3 { store.commit { $0.count += 1 } }
        #expect(seen == [[0, 0], [1, 2], [2, 4], [3, 6]])
        reaction.cancel()
    }

    @Test("commits made while every selector is released are seen by the next one made")
    func selectorAfterAllWereReleased() {
        let store = MainActorStore<SelectRows, Never>(initialState: SelectRows())
        do {
            let first = store.select { $0.count * 2 }
            #expect(first.value == 0)
        }
        store.commit { $0.count += 1 }
        store.commit { $0.count += 1 }
        let second = store.select { $0.count * 3 }
        #expect(second.value == 6)
        var seen: [Int] = []
        let subscription = second.onChange { _, new in seen.append(new) }
        store.commit { $0.count += 1 }
        #expect(seen == [9])
        withExtendedLifetime((second, subscription)) {}
    }

    @Test("a commit made by a subscriber is selected after the one it saw, in order")
    func nestedCommitsInOrder() {
        let store = MainActorStore<SelectRows, Never>(initialState: SelectRows())
        let count = store.select { $0.count }
        var received: [Int] = []
        let subscription = count.onChange { _, new in
            received.append(new)
            if new < 3 { store.commit { $0.count += 1 } }
        }
        store.commit { $0.count += 1 }
        #expect(received == [1, 2, 3])
        withExtendedLifetime((count, subscription)) {}
    }

    @Test("releasing the value releases its selector and what it captured, at once")
    func releasedWithItsValue() {
        let store = MainActorStore<SelectRows, Never>(initialState: SelectRows())
        var released = 0
        var ran = 0
        do {
            let capture = SelectCapture { released += 1 }
            let selected = store.select { state in
                withExtendedLifetime(capture) { ran += 1 }
                return state.count
            }
            store.commit { $0.count += 1 }
            #expect(selected.value == 1)
        }
        #expect(released == 1)
        ran = 0
        store.commit { $0.count += 1 }
        #expect(ran == 0)
    }
}
