/// Leaves a stored property of a ``RippleModel()`` class as it is: a plain Swift property
/// that Ripple does not track.
///
/// ```swift
/// @RippleModel
/// final class SearchModel {
///     var query = ""                       // tracked
///     @RippleIgnored var lastRequestID = 0 // not tracked
/// }
/// ```
///
/// An ignored `var` is mutable state the macro cannot vouch for, so the class then gets no
/// generated `Sendable` conformance. An ignored property may keep `willSet` and `didSet`.
@attached(accessor, names: named(willSet))
public macro RippleIgnored() = #externalMacro(module: "RippleMacrosPlugin", type: "RippleIgnoredMacro")
