import SwiftSyntax
import SwiftSyntaxMacros

/// `@_RippleModelProperty`, which `@RippleModel` puts on each stored `var` it manages: adds the
/// storage (`_name`, a `_ModelPropertyStorage`) and the accessors that go through it.
///
/// The storage is a `var` only because Swift's definite initialization runs the init accessor
/// again when an initializer assigns a property that also has an initial value
/// (`var filter = Filter.all` and `init(filter:) { self.filter = filter }`), and a `let`
/// cannot be assigned twice. It is `nonisolated(unsafe)` so that the class can still be checked
/// `Sendable`: it is private, written only by the init accessor (that is, only while the object
/// is being initialized, before anything else can reach it) and only read afterwards, and the
/// `Stored` it holds is thread-safe.
public struct ModelPropertyMacro: AccessorMacro, PeerMacro {
    /// The accessors of a managed property: an init accessor that creates its storage, and
    /// `get`, `set` and `_modify` through that storage (so a compound assignment stays one
    /// atomic read-modify-write).
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = propertyName(declaration) else { return [] }
        let label = [enclosingTypeName(context), name].compactMap { $0 }.joined(separator: ".")
        return [
            """
            @storageRestrictions(initializes: _\(raw: name))
            init(initialValue) {
                _\(raw: name) = RippleMacros._ModelPropertyStorage(initialValue, name: \(literal: label))
            }
            """,
            "get { _\(raw: name)[] }",
            "set { _\(raw: name)[] = newValue }",
            "_modify { yield &_\(raw: name)[] }",
        ]
    }

    /// The managed property's storage, `_name`, next to it.
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let name = propertyName(declaration) else { return [] }
        return ["private nonisolated(unsafe) var _\(raw: name): RippleMacros._ModelPropertyStorage"]
    }

    /// The name of the property, when it is one the macro can manage: without backticks
    /// (`` `default` `` is stored in `_default`).
    static func propertyName(_ declaration: some DeclSyntaxProtocol) -> String? {
        guard let variable = declaration.as(VariableDeclSyntax.self) else { return nil }
        return propertyName(variable, judgedAs: ModelMember(variable.removingPropertyAttribute))
    }

    /// ``propertyName(_:)`` of a declaration already judged `member`.
    static func propertyName(_ declaration: some DeclSyntaxProtocol, judgedAs member: ModelMember) -> String? {
        guard case .managed = member, let variable = declaration.as(VariableDeclSyntax.self),
            let pattern = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
        else { return nil }
        return pattern.identifier.identifier?.name ?? pattern.identifier.trimmed.text
    }

    /// The name of the class the property belongs to, for diagnostics (`TodoList.items`).
    static func enclosingTypeName(_ context: some MacroExpansionContext) -> String? {
        context.lexicalContext.first?.as(ClassDeclSyntax.self)?.name.trimmed.text
    }
}

extension VariableDeclSyntax {
    /// The declaration without `@_RippleModelProperty`, as `@RippleModel` judged it.
    var removingPropertyAttribute: VariableDeclSyntax {
        var copy = self
        copy.attributes = copy.attributes.filter { element in
            element.as(AttributeSyntax.self)?.name != ModelMember.propertyAttribute
        }
        return copy
    }
}
