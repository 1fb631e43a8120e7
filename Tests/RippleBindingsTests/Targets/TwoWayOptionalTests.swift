import Ripple
import RippleBindings
import RippleModels
import Testing

/// A control whose value is optional (a text field's `String?` text) bound to a model value
/// that is not.
@Suite struct TwoWayOptionalTests {
    /// A control with an optional text, and its two-way property (the binding's sets counted).
    final class OptionalField: @unchecked Sendable {
        let state = Locked<(text: String?, sets: Int)>((nil, 0))
        var text: String? { state.value.text }
        var sets: Int { state.value.sets }
        lazy var property = TwoWayBindableProperty<String?>(
            get: { [state] in state.value.text },
            set: { [state] value in
                state.mutate { $0 = (value, $0.sets + 1) }; return true
            }
        )
        /// The user edits the control.
        func edit(_ text: String?) {
            state.mutate { $0.text = text }
            property.userDidEdit()
        }
    }

    @Test("an optional control binds two-way to a model that is never nil; nil becomes the default")
    func nilFromTheControlBecomesTheDefault() {
        let field = OptionalField()
        let name = Stored("Ada")
        field.property.bind(name, default: "")
        #expect(field.text == "Ada")
        field.edit("Grace")
        #expect(name.value == "Grace")
        field.edit(nil)
        #expect(name.value == "")
        #expect(field.text == nil)  // the user's edit is not replaced by its echo
        #expect(field.sets == 1)
        name.value = "Lin"
        #expect(field.text == "Lin")
    }

    @Test("the default applies to a ValueBinding too, and onUnbind runs when the binding ends")
    func valueBindingWithDefaultAndCleanup() {
        let field = OptionalField()
        let count = Stored(3)
        let text = ValueBinding(get: { String(count.value) }, set: { count.value = Int($0) ?? 0 })
        let cleanups = Locked(0)
        field.property.bind(text, default: "0", onUnbind: { cleanups.mutate { $0 += 1 } })
        #expect(field.text == "3")
        field.edit(nil)
        #expect(count.value == 0)
        field.property.unbind()
        #expect(cleanups.value == 1)
    }

    @Test("an optional control shows a model that is never nil, one way")
    func oneWayToAnOptionalControl() {
        let field = OptionalField()
        let title = Stored("Draft")
        field.property.bindOneWay(title)
        #expect(field.text == "Draft")
        field.edit(nil)
        #expect(title.value == "Draft")
        title.value = "Final"
        #expect(field.text == "Final")
    }
}
