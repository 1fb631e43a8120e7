import Ripple
import RippleModels
import Testing

// `didChange { old, new in }` on a main-actor computed value, as on bindings and observable
// values: a newcomer trial wrote it from RippleStore's article and got "contextual closure
// type expects 3 arguments, but 2 were used".

@Suite("didChange on a main-actor computed value")
struct MainActorComputedDidChangeTests {
    @Test("the two-value form gets the old and the new value once per change")
    func oldAndNew() {
        let list = TodoList()
        var seen: [String] = []
        let subscription = list.remaining.didChange { old, new in seen.append("\(old)→\(new)") }
        list.add("Milk")
        list.add("Eggs")
        list.toggle(list.items[0].id)
        #expect(seen == ["0→1", "1→2", "2→1"])
        subscription.cancel()
    }

    @Test("withCurrent calls the two-value form at once, with the current value as both")
    func withCurrent() {
        let list = TodoList()
        list.add("Milk")
        var seen: [String] = []
        let subscription = list.remaining.didChange(withCurrent: true) { old, new in seen.append("\(old)→\(new)") }
        list.add("Eggs")
        #expect(seen == ["1→1", "1→2"])
        subscription.cancel()
    }
}
