#if canImport(UIKit) && !os(watchOS)
import UIKit
import Ripple
import RippleModels

/// The Ripple bindings of a UIKit view: `label.ripple.text.bind(title)`.
///
/// Each property is made once per view and kept with it (as an associated object), so a
/// binding lives as long as the view. Values are applied on the main actor.
@MainActor
public struct UIKitBindings<Base: UIView> {
    /// The view.
    public let base: Base
}

/// A type with Ripple bindings: every `UIView`.
public protocol UIKitBindable: AnyObject {}

extension UIKitBindable where Self: UIView {
    /// The view's Ripple bindings.
    @MainActor public var ripple: UIKitBindings<Self> { UIKitBindings(base: self) }
}

extension UIView: UIKitBindable {}

/// A one-way property of a UIKit view, applied on the main actor.
@MainActor
func _property<View: UIView, Value: Sendable>(
    _ view: View,
    _ key: StaticString,
    _ set: @escaping @MainActor (View, Value) -> Void
) -> BindableProperty<Value> {
    _associated(view, key) {
        BindableProperty(view, on: .mainActor) { view, value in
            MainActor.assumeIsolated { set(view, value) }
        }
    }
}

/// A two-way property of a UIKit control, applied on the main actor, whose edits are reported
/// by `event`.
@MainActor
func _twoWayProperty<Control: UIControl, Value: Sendable>(
    _ control: Control,
    _ key: StaticString,
    _ event: UIControl.Event,
    get: @escaping @MainActor (Control) -> Value,
    set: @escaping @MainActor (Control, Value) -> Void
) -> TwoWayBindableProperty<Value> {
    _associated(control, key) {
        let property = TwoWayBindableProperty<Value>(
            control,
            on: .mainActor,
            get: { control in MainActor.assumeIsolated { get(control) } },
            set: { control, value in MainActor.assumeIsolated { set(control, value) } }
        )
        control.addAction(UIAction { [weak property] _ in property?.userDidEdit() }, for: event)
        return property
    }
}

extension UIKitBindings where Base: UILabel {
    /// The label's text.
    public var text: BindableProperty<String?> { _property(base, "ripple.UILabel.text") { $0.text = $1 } }
}

extension UIKitBindings where Base: UIControl {
    /// Whether the control is enabled.
    public var isEnabled: BindableProperty<Bool> { _property(base, "ripple.UIControl.isEnabled") { $0.isEnabled = $1 } }
}

extension UIKitBindings where Base: UIButton {
    /// Sent when the user taps the button (`.primaryActionTriggered`).
    public var tap: Event<Void> {
        _associated(base, "ripple.UIButton.tap") {
            let event = Event<Void>()
            base.addAction(UIAction { _ in event.send() }, for: .primaryActionTriggered)
            return event
        }
    }
}

extension UIKitBindings where Base: UITextField {
    /// The field's text, two-way: the user's edits (`.editingChanged`) reach the model.
    public var text: TwoWayBindableProperty<String> {
        _twoWayProperty(base, "ripple.UITextField.text", .editingChanged, get: { $0.text ?? "" }, set: { $0.text = $1 })
    }
}

#if !os(tvOS)
extension UIKitBindings where Base: UISwitch {
    /// Whether the switch is on, two-way.
    public var isOn: TwoWayBindableProperty<Bool> {
        _twoWayProperty(
            base, "ripple.UISwitch.isOn", .valueChanged, get: { $0.isOn }, set: { $0.setOn($1, animated: true) })
    }
}

extension UIKitBindings where Base: UISlider {
    /// The slider's value, two-way.
    public var value: TwoWayBindableProperty<Float> {
        _twoWayProperty(
            base, "ripple.UISlider.value", .valueChanged, get: { $0.value }, set: { $0.setValue($1, animated: true) })
    }
}
#endif
#endif
