import Ripple
import RippleBindings
import RippleModels
import RippleTesting
import Testing

// A main-actor model's bindings (`model.bindings.name`, `$model.name`) are
// `MainActorValueBinding`s: these tests bind them to a control two-way, as main-actor app
// code does, with no concurrency annotation on the app's own types.

/// A main-actor view model whose properties observe their own changes.
final class ProfileModel: ObservableModel {
    @Observed var name = "Ada" {
        didSet { didSets.append(name) }
    }
    @Observed var price = 1.0 {
        didSet { priceWrites += 1 }
    }
    @Observed var nickname = "Ada"
    @Observed var address = Address(city: "London") {
        didSet { addressWrites += 1 }
    }
    private(set) var didSets: [String] = []
    private(set) var priceWrites = 0
    private(set) var addressWrites = 0
}

/// A plain value type of the app.
struct Address: Equatable {
    var city: String
}

/// A value the tests' `@Sendable` callbacks (cleanups, a setter) change on the main actor.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A screen that holds its model and binds with `$model`.
final class ProfileScreen {
    @ObservedModel var model = ProfileModel()
    let nameField = TextField()
    lazy var name = nameField.textProperty()

    func bind() { name.bind($model.name) }
}

@Suite("Two-way bindings to a main-actor model's properties")
struct TwoWayMainActorBindingTests {
    @Test("the control shows the property, and the user's edits reach it through its setter")
    func readsAndWritesBack() {
        let model = ProfileModel()
        let field = TextField()
        let text = field.textProperty()
        text.bind(model.bindings.name)
        #expect(field.text == "Ada")
        field.type("Grace")
        #expect(model.name == "Grace")
        #expect(model.didSets == ["Grace"])
        model.name = "Alan"
        #expect(field.text == "Alan")
        #expect(field.sets == 2)
        withExtendedLifetime(text) {}
    }

    @Test("a value that is not Equatable: after an edit the model refused, a change from elsewhere is shown")
    func refusedEditThenChangeFromElsewhere() {
        struct Note { var text: String }
        let note = Box(Note(text: "a"))
        let version = Stored(0)  // what the getter reads, so that the binding sees changes
        // The model refuses an empty text.
        let binding = MainActorValueBinding<Note>(
            get: {
                _ = version.value
                return note.value
            },
            set: {
                guard !$0.text.isEmpty else { return }
                note.value = $0
                version.value += 1
            })
        let field = TextField()
        let text = field.textProperty()
        text.bind(binding, .transform({ $0.text }, reverse: { Note(text: $0) }))
        #expect(field.text == "a")
        field.type("")
        #expect(note.value.text == "a")
        #expect(field.text == "")
        note.value = Note(text: "b")
        version.value += 1
        #expect(field.text == "b", "the change from elsewhere was taken for the echo of the user's edit")
        withExtendedLifetime(text) {}
    }

    @Test("$model.name through @ObservedModel binds the same way")
    func projectedBinding() {
        let screen = ProfileScreen()
        screen.bind()
        #expect(screen.nameField.text == "Ada")
        screen.nameField.type("Grace")
        #expect(screen.model.name == "Grace")
        screen.model.name = "Alan"
        #expect(screen.nameField.text == "Alan")
    }

    @Test("no echo: a lossy transform keeps the user's text, and the model is written once per edit")
    func noEcho() {
        let model = ProfileModel()
        let field = TextField()
        let text = field.textProperty()
        text.bind(model.bindings.price, .transform({ "\($0)" }, reverse: { Double($0) ?? 0 }))
        #expect(field.text == "1.0")
        #expect(field.sets == 1)
        field.type("1.50")
        #expect(model.price == 1.5)
        #expect(field.text == "1.50", "the user's text was replaced by the model's echo")
        #expect(field.sets == 1)
        #expect(model.priceWrites == 1)
        model.price = 2
        #expect(field.text == "2.0")
        #expect(field.sets == 2)
        withExtendedLifetime(text) {}
    }

    @Test("unbind() stops both ways and runs the cleanup once")
    func unbind() {
        let model = ProfileModel()
        let field = TextField()
        let text = field.textProperty()
        let cleanups = Box(0)
        text.bind(model.bindings.name, onUnbind: { MainActor.assumeIsolated { cleanups.value += 1 } })
        #expect(text.isBound)
        text.unbind()
        #expect(!text.isBound)
        #expect(cleanups.value == 1)
        field.type("Grace")
        #expect(model.name == "Ada")
        model.name = "Alan"
        #expect(field.text == "Grace")
        text.unbind()
        #expect(cleanups.value == 1)
    }

    @Test("cancelling the returned subscription ends the binding")
    func cancelSubscription() {
        let model = ProfileModel()
        let field = TextField()
        let text = field.textProperty()
        let subscription = text.bind(model.bindings.name)
        subscription.cancel()
        #expect(!text.isBound)
        model.name = "Alan"
        #expect(field.text == "Ada")
    }

    @Test("a key-path projection binds a part of a property, and edits go through its setter")
    func projection() {
        let model = ProfileModel()
        let field = TextField()
        let text = field.textProperty()
        text.bind(model.bindings.address.city)
        #expect(field.text == "London")
        field.type("Paris")
        #expect(model.address == Address(city: "Paris"))
        #expect(model.addressWrites == 1)
        withExtendedLifetime(text) {}
    }

    @Test("an optional control bound with a default writes the default for nil")
    func optionalDefault() {
        let model = ProfileModel()
        let shown = Box<String?>(nil)
        let property = TwoWayBindableProperty<String?>(
            get: { .some(nil) },  // the user cleared the control
            set: { value in
                MainActor.assumeIsolated { shown.value = value }
                return true
            })
        property.bind(model.bindings.nickname, default: "Anonymous")
        #expect(shown.value == "Ada")
        property.userDidEdit()
        #expect(model.nickname == "Anonymous")
        withExtendedLifetime(property) {}
    }

    @Test("a debounced edit, written when the clock's timer fires, reaches the property on the main actor")
    func debouncedEdit() async {
        let clock = TestClock()
        let model = ProfileModel()
        let field = TextField()
        let text = field.textProperty()
        text.bind(model.bindings.name, .identity.debounce(for: .milliseconds(300), clock: clock))
        field.type("G")
        field.type("Grace")
        #expect(model.name == "Ada")
        #expect(await eventually { clock.sleeperCount == 1 })
        await clock.advance(by: .milliseconds(300))
        #expect(await eventually { model.name == "Grace" })
        #expect(model.didSets == ["Grace"])
        #expect(field.text == "Grace")
        #expect(field.sets == 1, "the user's edit was echoed back to the control")
        withExtendedLifetime(text) {}
    }

    @Test("unbinding writes a debounced edit still waiting, then stops")
    func unbindFlushesPendingEdit() async {
        let clock = TestClock()
        let model = ProfileModel()
        let field = TextField()
        let text = field.textProperty()
        text.bind(model.bindings.name, .identity.debounce(for: .milliseconds(300), clock: clock))
        field.type("Grace")
        text.unbind()
        #expect(model.name == "Grace")
        #expect(model.didSets == ["Grace"])
    }
}

/// Yields until `condition` holds, at most `limit` times (no sleeping, no wall time).
func eventually(_ limit: Int = 10_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
