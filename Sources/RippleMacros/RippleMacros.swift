@_exported import Ripple
@_exported import RippleModels
@_exported import Observation

@attached(memberAttribute)
@attached(extension, conformances: Observable, ObservableModel, Sendable)
public macro ProtoModel() = #externalMacro(module: "RippleMacrosPlugin", type: "ProtoModel")

@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro ProtoProperty() = #externalMacro(module: "RippleMacrosPlugin", type: "ProtoProperty")

public struct ProtoSlot: @unchecked Sendable {
    let node: AnyObject
    public init<Value: Sendable & Equatable>(_ value: Value) { node = Stored(value) }
    public init<Value: Sendable>(_ value: Value) { node = Stored(value, equals: nil) }
    public func get<Value>() -> Value { unsafeDowncast(node, to: Stored<Value>.self).value }
    public func set<Value>(_ v: Value) { unsafeDowncast(node, to: Stored<Value>.self).value = v }
    public subscript<Value>() -> Value {
        get { unsafeDowncast(node, to: Stored<Value>.self).value }
        nonmutating _modify { yield &unsafeDowncast(node, to: Stored<Value>.self).value }
    }
}
