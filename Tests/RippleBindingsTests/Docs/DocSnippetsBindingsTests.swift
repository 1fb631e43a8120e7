// The code of the RippleBindings catalog and doc comments, compiled and run (the UIKit parts
// excepted: they are built only on Apple platforms).
import Ripple
import RippleBindings
import RippleModels
import RippleTesting
import Testing

private final class Badge: @unchecked Sendable {
    private let state = Locked("")
    var text: String {
        get { state.value }
        set { state.value = newValue }
    }
}

private final class Field: @unchecked Sendable {
    private let state = Locked("")
    var text: String {
        get { state.value }
        set { state.value = newValue }
    }
}

private struct Day: Identifiable, Equatable, Sendable {
    var id: String { name }
    var name: String
}

@Suite struct DocSnippetsBindingsTests {
    @Test("getting started: show a value")
    func showAValue() {
        let badge = Badge()
        let badgeText = BindableProperty(badge) { badge, text in badge.text = text }
        let unread = Stored(3)
        badgeText.bind(unread, .transform { "\($0) unread" })
        #expect(badge.text == "3 unread")
        unread.value = 4
        #expect(badge.text == "4 unread")
    }

    @Test("TwoWayBindableProperty: the example of its documentation")
    func twoWay() {
        let field = Field()
        let text = TwoWayBindableProperty(field, get: { $0.text }, set: { $0.text = $1 })
        let name = Stored("Ada")
        text.bind(name)
        #expect(field.text == "Ada")
        field.text = "Grace"
        text.userDidEdit()
        #expect(name.value == "Grace")
    }

    @Test("the Bindings article: a chain of handlers, cents to text")
    func handlerChain() async {
        let clock = TestClock()
        let handler = BindingHandler<Int, Double>
            .transform({ Double($0) / 100 }, reverse: { Int(($0 * 100).rounded()) })
            .transform({ "$\($0)" }, reverse: { Double($0.dropFirst()) ?? 0 })
            .debounce(for: .milliseconds(300), clock: clock)
        let field = Field()
        let text = TwoWayBindableProperty(field, get: { $0.text }, set: { $0.text = $1 })
        let cents = Stored(1999)
        text.bind(cents, handler)
        #expect(field.text == "$19.99")
    }

    @Test("the Bindings article: a per-binding computed value")
    func perBindingComputed() {
        let greeting = Badge()
        let text = BindableProperty(greeting) { $0.text = $1 }
        let firstName = Stored("Ada"), lastName = Stored("Lovelace")
        text.bind { "Hello, \(firstName.value) \(lastName.value)" }
        #expect(greeting.text == "Hello, Ada Lovelace")
    }

    @Test("ObservableArray: the example of its documentation")
    func observableArray() {
        let days = ObservableArray(["Monday", "Tuesday"])
        let seen = Locked<[String]>([])
        let subscription = days.didChangeElements { changes, _ in seen.mutate { $0.append(changes.description) } }
        days.insert("Sunday", at: 0)
        #expect(seen.value == ["-[] +[0] ↕[] ~[]"])
        withExtendedLifetime(subscription) {}
    }

    @Test("ListDataSource: the example of its documentation, with a view that records updates")
    func listDataSource() {
        let days = Stored(["Sunday", "Monday", "Tuesday"].map { Day(name: $0) })
        let dataSource = ListDataSource(items: days)
        dataSource.allowsMoving = true
        dataSource.allowsDeletion = true
        let updates = Locked<[ListUpdate]>([])
        dataSource.connect { update in updates.mutate { $0.append(update) } }
        days.value.append(Day(name: "Wednesday"))
        #expect(updates.value.map(\.itemInsertions) == [[ListIndex(item: 3)]])
    }

    @Test("WritableComputed: the example of its documentation")
    func writableComputed() {
        let first = Stored("Ada"), last = Stored("Lovelace")
        let fullName = WritableComputed(
            get: { "\(first.value) \(last.value)" },
            set: { name in
                let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
                batch {
                    first.value = parts.first ?? ""
                    last.value = parts.count > 1 ? parts[1] : ""
                }
            }
        )
        fullName.value = "Grace Hopper"
        #expect(first.value == "Grace")
        #expect(last.value == "Hopper")
    }

    @Test("subscribe: the example of its documentation")
    func subscribe() {
        let name = Stored("")
        let lines = Locked<[String]>([])
        let subscription = name.subscribe(.notifyingOnSubscription) { old, new in
            lines.mutate { $0.append("\(old ?? "(none)") → \(new)") }
        }
        name.value = "Ada"
        #expect(lines.value == ["(none) → ", " → Ada"])
        withExtendedLifetime(subscription) {}
    }
}
