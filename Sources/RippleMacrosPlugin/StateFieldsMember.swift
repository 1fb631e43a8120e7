import SwiftSyntax

/// The fields `@StateFields` lists for one member of the struct, read from its syntax alone.
enum StateFieldsMember {
    /// How a property with an attribute is listed. Any attribute not named here may be a
    /// property wrapper whose wrapped value cannot be compared (or another macro), so its
    /// property is left out: its readers are then checked on every commit, as with a plain state.
    /// So is a deprecated one (`@available` on a stored property can only deprecate it), which
    /// the list would otherwise name in a warning.
    static let listedAttributes: [String: KeyPathForm] = [
        "preconcurrency": .name, "usableFromInline": .name,
        // RippleStore's wrappers: a `@CopyOnWrite` value is compared as the value itself, an
        // `@Edge` by version and a `@Triggered` by assignment, through their projected values.
        "CopyOnWrite": .name, "Edge": .projected, "Triggered": .projected,
    ]

    /// The key path component that names a field.
    enum KeyPathForm {
        /// `\.name`: the property itself.
        case name
        /// `\.$name`: a property wrapper's projected value.
        case projected
    }

    /// The key path components (`count`, `$books`) of the fields `member` declares, in
    /// declaration order: every stored instance property, `var` or `let`, one per binding.
    /// Nothing for computed, `static`, `class` and `lazy` properties, those marked
    /// `@RippleIgnored`, those with an unknown attribute, and members that are not properties.
    static func fields(in member: some SyntaxProtocol) -> [String] {
        guard let variable = member.as(VariableDeclSyntax.self) else { return [] }
        let modifiers = Set(variable.modifiers.map(\.name.text))
        guard modifiers.isDisjoint(with: ["static", "class", "lazy"]) else { return [] }
        var form = KeyPathForm.name
        for attribute in variable.attributes {
            guard let attribute = attribute.as(AttributeSyntax.self),
                let listed = listedAttributes[attribute.name]
            else { return [] }  // `@RippleIgnored`, an unknown wrapper, an `#if` in the attributes
            if listed == .projected { form = .projected }
        }
        return variable.bindings.flatMap { binding -> [String] in
            // Computed properties (a getter, or a bare accessor body) are not storage; observers
            // (`didSet`) are.
            if binding.accessorBlock?.isComputed ?? false { return [] }
            return binding.pattern.identifiers.map { name in
                form == .projected ? "$\(name)" : name
            }
        }
    }
}

extension PatternSyntax {
    /// The names the pattern binds: `count` for `count`, `x` and `y` for `(x, y)`.
    var identifiers: [String] {
        if let identifier = self.as(IdentifierPatternSyntax.self) {
            return [identifier.identifier.trimmed.text]
        }
        if let tuple = self.as(TuplePatternSyntax.self) {
            return tuple.elements.flatMap(\.pattern.identifiers)
        }
        if let typed = self.as(ValueBindingPatternSyntax.self) {
            return typed.pattern.identifiers
        }
        return []
    }
}
