#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import Ripple
import RippleModels

/// The Ripple bindings of an AppKit view: `label.ripple.text.bind(title)`.
///
/// Each property is made once per view and kept with it, so a binding lives as long as the
/// view. Values are applied on the main actor.
@MainActor
public struct AppKitBindings<Base: NSView> {
    /// The view.
    public let base: Base
}

/// A type with Ripple bindings: every `NSView`.
public protocol AppKitBindable: AnyObject {}

extension AppKitBindable where Self: NSView {
    /// The view's Ripple bindings.
    @MainActor public var ripple: AppKitBindings<Self> { AppKitBindings(base: self) }
}

extension NSView: AppKitBindable {}

/// The target of a control's action: calls `handler`.
@MainActor
final class _ActionTarget: NSObject {
    let handler: @MainActor () -> Void
    init(_ handler: @escaping @MainActor () -> Void) { self.handler = handler }
    @objc func invoke(_ sender: Any?) { handler() }
}

/// A one-way property of an AppKit view, applied on the main actor.
@MainActor
func _property<View: NSView, Value: Sendable>(
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

/// A two-way property of a control whose action reports the user's edits.
@MainActor
func _twoWayProperty<Control: NSControl, Value: Sendable>(
    _ control: Control,
    _ key: StaticString,
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
        let target = _ActionTarget { [weak property] in property?.userDidEdit() }
        objc_setAssociatedObject(
            control, UnsafeRawPointer(key.utf8Start).advanced(by: 1), target, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        control.target = target
        control.action = #selector(_ActionTarget.invoke(_:))
        return property
    }
}

extension AppKitBindings where Base: NSTextField {
    /// The field's text, two-way: the user's edits (each keystroke) reach the model. For a
    /// label (a field that is not editable) it simply shows the value.
    public var text: TwoWayBindableProperty<String> {
        _associated(base, "ripple.NSTextField.text") {
            let property = TwoWayBindableProperty<String>(
                base,
                on: .mainActor,
                get: { field in MainActor.assumeIsolated { field.stringValue } },
                set: { field, value in MainActor.assumeIsolated { field.stringValue = value } }
            )
            let token = NotificationCenter.default.addObserver(
                forName: NSControl.textDidChangeNotification, object: base, queue: .main
            ) { [weak property] _ in property?.userDidEdit() }
            objc_setAssociatedObject(
                base, UnsafeRawPointer(("ripple.NSTextField.token" as StaticString).utf8Start), _ObserverToken(token),
                .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            return property
        }
    }
}

/// Removes a notification observer when released.
final class _ObserverToken: NSObject {
    private let token: any NSObjectProtocol
    init(_ token: any NSObjectProtocol) { self.token = token }
    deinit { NotificationCenter.default.removeObserver(token) }
}

extension AppKitBindings where Base: NSControl {
    /// Whether the control is enabled.
    public var isEnabled: BindableProperty<Bool> { _property(base, "ripple.NSControl.isEnabled") { $0.isEnabled = $1 } }
}

extension AppKitBindings where Base: NSButton {
    /// Sent when the user clicks the button. (It becomes the button's target and action.)
    public var tap: Event<Void> {
        _associated(base, "ripple.NSButton.tap") {
            let event = Event<Void>()
            let target = _ActionTarget { event.send() }
            objc_setAssociatedObject(
                base, UnsafeRawPointer(("ripple.NSButton.target" as StaticString).utf8Start), target,
                .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            base.target = target
            base.action = #selector(_ActionTarget.invoke(_:))
            return event
        }
    }
}

extension AppKitBindings where Base: NSSwitch {
    /// Whether the switch is on, two-way.
    public var isOn: TwoWayBindableProperty<Bool> {
        _twoWayProperty(base, "ripple.NSSwitch.isOn", get: { $0.state == .on }, set: { $0.state = $1 ? .on : .off })
    }
}

extension AppKitBindings where Base: NSSlider {
    /// The slider's value, two-way.
    public var value: TwoWayBindableProperty<Double> {
        _twoWayProperty(base, "ripple.NSSlider.value", get: { $0.doubleValue }, set: { $0.doubleValue = $1 })
    }
}
#endif
