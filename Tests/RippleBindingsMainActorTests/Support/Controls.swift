import Ripple
import RippleBindings

// Compiled as Xcode 26 compiles a new app target (see Package.swift): every declaration here
// is main-actor isolated by default.

/// A text field of the app's UI (main-actor state), standing in for a `UITextField`: the text
/// the user types, and how often the binding set it.
final class TextField {
    private(set) var text = ""
    private(set) var sets = 0
    /// What the control's change event calls (the adapter's `userDidEdit()`).
    var onEdit: () -> Void = {}

    /// The program sets the text (the binding).
    func show(_ text: String) {
        self.text = text
        sets += 1
    }

    /// The user types.
    func type(_ text: String) {
        self.text = text
        onEdit()
    }

    /// The field's two-way text property, made as the UIKit and AppKit adapters make theirs:
    /// applied on the main actor, and told of the user's edits by the control's event.
    func textProperty() -> TwoWayBindableProperty<String> {
        let property = TwoWayBindableProperty<String>(
            self,
            on: .mainActor,
            get: { field in MainActor.assumeIsolated { field.text } },
            set: { field, value in MainActor.assumeIsolated { field.show(value) } }
        )
        onEdit = { [weak property] in property?.userDidEdit() }
        return property
    }
}
