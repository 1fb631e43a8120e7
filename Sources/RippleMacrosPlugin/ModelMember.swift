import SwiftSyntax

/// What `@RippleModel` does with one member of the class, read from its syntax alone.
enum ModelMember {
    /// A stored `var` the macro turns into a reactive property.
    case managed
    /// A stored `var` the macro leaves alone: mutable state it cannot vouch for.
    case unmanagedMutable
    /// A `var` the macro refuses, with the reason.
    case refused(RippleModelDiagnostic)
    /// Anything else: `let`s, computed and static properties, methods, nested types.
    case other

    /// Attributes that leave a stored property a plain stored property. Any other attribute
    /// may be a property wrapper (`@Observed`, `@Persisted`) or another macro, whose storage
    /// the macro must not replace.
    static let plainAttributes: Set<String> = [
        "available", "MainActor", "objc", "nonobjc", "preconcurrency", "usableFromInline", "inlinable",
    ]

    static let ignoredAttribute = "RippleIgnored"
    static let propertyAttribute = "_RippleModelProperty"

    init(_ member: some SyntaxProtocol) {
        guard let variable = member.as(VariableDeclSyntax.self),
            variable.bindingSpecifier.tokenKind == .keyword(.var)
        else {
            self = .other
            return
        }
        let modifiers = Set(variable.modifiers.map(\.name.text))
        if !modifiers.isDisjoint(with: ["static", "class"]) {
            self = .other
            return
        }
        // Computed properties (a getter, or a bare accessor body) are not storage.
        if variable.bindings.contains(where: { $0.accessorBlock?.isComputed ?? false }) {
            self = .other
            return
        }
        let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self)?.name }
        if attributes.contains(Self.propertyAttribute) {
            self = .other
            return
        }
        if !modifiers.isDisjoint(with: ["lazy", "weak", "unowned"])
            || attributes.contains(where: { !Self.plainAttributes.contains($0) })
        {
            self = .unmanagedMutable
            return
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
            binding.pattern.is(IdentifierPatternSyntax.self)
        else {
            self = .refused(.severalBindings)
            return
        }
        if binding.accessorBlock != nil {
            self = .refused(.observers)
            return
        }
        self = .managed
    }
}

extension AttributeSyntax {
    /// The attribute's name without arguments or module: `RippleIgnored` for
    /// `@RippleMacros.RippleIgnored`.
    var name: String {
        let type = attributeName.trimmed
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        return type.as(IdentifierTypeSyntax.self)?.name.text ?? type.description
    }
}

extension AccessorBlockSyntax {
    /// Whether the accessors make the property computed (a getter, or a body with no
    /// accessor keywords), rather than adding observers to a stored one.
    var isComputed: Bool {
        switch accessors {
        case .getter:
            true
        case .accessors(let list):
            list.contains { accessor in
                !["willSet", "didSet"].contains(accessor.accessorSpecifier.text)
            }
        }
    }
}
