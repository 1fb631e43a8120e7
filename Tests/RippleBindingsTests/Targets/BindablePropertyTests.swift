import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct BindablePropertyTests {
    @Test("bind shows the current value and every change")
    func showsValues() {
        let label = FakeLabel()
        let text = BindableProperty<String?>(label) { $0.text = $1 }
        let title = Stored("Hello")
        text.bind(title)
        #expect(label.text == "Hello")
        title.value = "Bye"
        #expect(label.text == "Bye")
        title.value = "Bye"
        #expect(label.sets == 2)
    }

    @Test("a transform, and a per-binding computed value whose reads are tracked")
    func transformAndComputed() {
        let label = FakeLabel()
        let text = BindableProperty<String?>(label) { $0.text = $1 }
        let count = Stored(3)
        text.bind(count, .transform { "\($0) items" })
        #expect(label.text == "3 items")
        count.value = 4
        #expect(label.text == "4 items")

        let first = Stored("Ada"), last = Stored("Lovelace")
        text.bind { "\(first.value) \(last.value)" }
        #expect(label.text == "Ada Lovelace")
        last.value = "Byron"
        #expect(label.text == "Ada Byron")
        count.value = 5  // the previous binding was replaced
        #expect(label.text == "Ada Byron")
    }

    @Test("binding again replaces the previous binding")
    func replaces() {
        let label = FakeLabel()
        let text = BindableProperty<String?>(label) { $0.text = $1 }
        let a = Stored("a"), b = Stored("b")
        text.bind(a)
        text.bind(b)
        a.value = "a2"
        #expect(label.text == "b")
        b.value = "b2"
        #expect(label.text == "b2")
    }

    @Test("unbind, or cancelling the subscription bind returned, ends the binding")
    func unbind() {
        let label = FakeLabel()
        let text = BindableProperty<String?>(label) { $0.text = $1 }
        let title = Stored("x")
        text.bind(title)
        #expect(text.isBound)
        text.unbind()
        #expect(!text.isBound)
        title.value = "y"
        #expect(label.text == "x")

        let subscription = text.bind(title)
        #expect(label.text == "y")
        subscription.cancel()
        title.value = "z"
        #expect(label.text == "y")
    }

    @Test("releasing the target ends the binding; the property never keeps it alive")
    func releasingTheTarget() {
        let title = Stored("x")
        var label: FakeLabel? = FakeLabel()
        weak let weakLabel = label
        let text = BindableProperty<String?>(label!) { $0.text = $1 }
        text.bind(title)
        label = nil
        #expect(weakLabel == nil)
        title.value = "y"
        #expect(!text.isBound)
    }

    @Test("releasing the property ends the binding")
    func releasingTheProperty() {
        let title = Stored("x")
        let calls = Locked(0)
        var text: BindableProperty<String>? = BindableProperty { _ in
            calls.mutate { $0 += 1 }
            return true
        }
        text!.bind(title)
        text = nil
        title.value = "y"
        #expect(calls.value == 1)
    }

    @Test("an optional property binds a value that is never nil, and a default replaces nil")
    func optionals() {
        let label = FakeLabel()
        let text = BindableProperty<String?>(label) { $0.text = $1 }
        text.bind(Stored("x"))
        #expect(label.text == "x")

        let plain = Locked("")
        let nonOptional = BindableProperty<String> {
            plain.value = $0; return true
        }
        let nickname = Stored<String?>(nil)
        nonOptional.bind(nickname, BindingHandler<String?, String?>.transform { $0 }.replacingNil(with: "Anonymous"))
        #expect(plain.value == "Anonymous")
        nickname.value = "ada"
        #expect(plain.value == "ada")
    }

    @Test("a binding made inside a reaction outlives the reaction's run")
    func bindInsideReaction() {
        let label = FakeLabel()
        let text = BindableProperty<String?>(label) { $0.text = $1 }
        let trigger = Stored(0), title = Stored("a")
        let reaction = observe {
            if trigger.value == 0 { text.bind(title) }
        }
        trigger.value = 1  // the reaction runs again: a child reaction would be cancelled
        title.value = "b"
        #expect(label.text == "b")
        withExtendedLifetime(reaction) {}
    }

    @Test("a diamond reaches the target once per change, consistent")
    func consistent() {
        let seen = Locked<[String]>([])
        let text = BindableProperty<String> { value in
            seen.mutate { $0.append(value) }; return true
        }
        let name = Stored("a")
        let upper = Computed { name.value.uppercased() }
        let lower = Computed { name.value.lowercased() }
        text.bind { "\(upper.value)\(lower.value)" }
        name.value = "b"
        #expect(seen.value == ["Aa", "Bb"])
    }
}
