// The UIKit and AppKit adapters keep each control's bindable properties on the control itself.
#if canImport(ObjectiveC) && (canImport(UIKit) || canImport(AppKit)) && !os(watchOS)
import ObjectiveC

/// Returns the object stored on `owner` under `key`, made by `make` the first time.
@MainActor
func _associated<T: AnyObject>(_ owner: AnyObject, _ key: StaticString, _ make: () -> T) -> T {
    let pointer = UnsafeRawPointer(key.utf8Start)
    if let existing = objc_getAssociatedObject(owner, pointer) as? T { return existing }
    let created = make()
    objc_setAssociatedObject(owner, pointer, created, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    return created
}
#endif
