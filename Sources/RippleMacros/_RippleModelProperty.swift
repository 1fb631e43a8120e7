/// Turns one stored property of a ``RippleModel()`` class into accessors backed by a
/// ``_ModelPropertyStorage``; ``RippleModel()`` applies it. Not for direct use.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro _RippleModelProperty() = #externalMacro(module: "RippleMacrosPlugin", type: "ModelPropertyMacro")
