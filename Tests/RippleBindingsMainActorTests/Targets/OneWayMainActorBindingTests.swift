import Ripple
import RippleBindings
import RippleModels
import Testing

// A main-actor app shows its view model's derived values (`MainActorComputed`) and its
// properties (`model.bindings.name`, a `MainActorValueBinding`) in controls one way, with no
// concurrency annotation on its own types.

/// A label of the app's UI (main-actor state), standing in for a `UILabel`.
final class Label {
    private(set) var text = ""
    private(set) var sets = 0

    func show(_ text: String) {
        self.text = text
        sets += 1
    }

    /// The label's one-way text property, made as the UIKit and AppKit adapters make theirs:
    /// applied on the main actor.
    func textProperty() -> BindableProperty<String> {
        BindableProperty<String>(self, on: .mainActor) { label, value in
            MainActor.assumeIsolated { label.show(value) }
        }
    }
}

@Suite("One-way bindings of main-actor values")
struct OneWayMainActorBindingTests {
    @Test("a MainActorComputed is shown, and shown again after each change")
    func showsAMainActorComputed() {
        let model = ProfileModel()
        let greeting = MainActorComputed { "Hello, \(model.name)" }
        let label = Label()
        let text = label.textProperty()
        let subscription = text.bind(greeting)
        #expect(label.text == "Hello, Ada")
        model.name = "Grace"
        #expect(label.text == "Hello, Grace")
        #expect(label.sets == 2)
        subscription.cancel()
        model.name = "Alan"
        #expect(label.text == "Hello, Grace")
    }

    @Test("a MainActorComputed is shown through a transform")
    func showsThroughATransform() {
        let model = ProfileModel()
        let length = MainActorComputed { model.name.count }
        let label = Label()
        let text = label.textProperty()
        text.bind(length, .transform { "\($0) letters" })
        #expect(label.text == "3 letters")
        model.name = "Grace"
        #expect(label.text == "5 letters")
        withExtendedLifetime(text) {}
    }

    @Test("a main-actor model's property is shown one way")
    func showsAMainActorBinding() {
        let model = ProfileModel()
        let label = Label()
        let text = label.textProperty()
        text.bind(model.bindings.name)
        #expect(label.text == "Ada")
        model.name = "Grace"
        #expect(label.text == "Grace")
        text.bind(model.bindings.price, .transform { String($0) })
        #expect(label.text == "1.0")
        model.name = "Alan"
        #expect(label.text == "1.0")
        model.price = 2.5
        #expect(label.text == "2.5")
        #expect(model.didSets == ["Grace", "Alan"])
    }
}
