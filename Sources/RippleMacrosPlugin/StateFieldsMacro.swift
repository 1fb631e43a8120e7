import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@StateFields`: conforms a struct to RippleStore's `StateFields`, listing its stored
/// properties as the state's fields.
public struct StateFieldsMacro: ExtensionMacro {
    /// `extension AppState: nonisolated RippleStore.StateFields { nonisolated static let
    /// stateFields … }`, listing every stored instance property in declaration order; a
    /// diagnostic for a declaration that is not a struct.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: RippleModelDiagnostic.stateFieldsNotAStruct))
            return []
        }
        // `protocols` is empty when the struct already declares the conformance: the list is
        // then all the extension adds.
        let conformance = protocols.isEmpty ? "" : ": nonisolated RippleStore.StateFields"
        let type = type.trimmed
        let fields = structDecl.memberBlock.members.flatMap { StateFieldsMember.fields(in: $0.decl) }
        let list = fields.map { "RippleStore.StateField(\\.\($0))" }.joined(separator: ", ")
        let declaration = "\(accessModifier(structDecl, in: context))nonisolated static"
        let listType = "[RippleStore.StateField<\(type)>]"
        // A generic type cannot have a static stored property: its list is computed on each read.
        let member =
            isGeneric(structDecl, in: context)
            ? "\(declaration) var stateFields: \(listType) { [\(list)] }"
            : "\(declaration) let stateFields: \(listType) = [\(list)]"
        return [
            try ExtensionDeclSyntax(
                """
                extension \(type)\(raw: conformance) {
                    \(raw: member)
                }
                """)
        ]
    }

    /// Whether the struct, or a type it is nested in, has generic parameters (as far as syntax
    /// tells: an extension of a generic type does not say so).
    static func isGeneric(_ structDecl: StructDeclSyntax, in context: some MacroExpansionContext) -> Bool {
        if structDecl.genericParameterClause != nil { return true }
        return context.lexicalContext.contains { node in
            if let decl = node.as(StructDeclSyntax.self) { return decl.genericParameterClause != nil }
            if let decl = node.as(ClassDeclSyntax.self) { return decl.genericParameterClause != nil }
            if let decl = node.as(EnumDeclSyntax.self) { return decl.genericParameterClause != nil }
            if let decl = node.as(ActorDeclSyntax.self) { return decl.genericParameterClause != nil }
            return false
        }
    }

    /// The modifier that makes `stateFields` as visible as the struct, which the conformance
    /// needs: `public ` or `package `, or nothing (internal, or less when the struct is). A
    /// struct without a modifier declared in a `public extension` (or a `package` one) is as
    /// visible as the extension says.
    static func accessModifier(_ structDecl: StructDeclSyntax, in context: some MacroExpansionContext) -> String {
        if let modifier = accessModifier(structDecl.modifiers) { return modifier }
        if structDecl.modifiers.contains(where: { isAccessKeyword($0.name.tokenKind) }) { return "" }
        // The innermost declaration around the struct (the struct itself, if the context lists
        // it, is skipped): only an extension lends its access level.
        let enclosing = context.lexicalContext.first { node in
            node.as(StructDeclSyntax.self)?.name.text != structDecl.name.text
        }
        guard let enclosing = enclosing?.as(ExtensionDeclSyntax.self) else { return "" }
        return accessModifier(enclosing.modifiers) ?? ""
    }

    /// `public `, `package `, or `nil` for any other access level (or none) in `modifiers`.
    private static func accessModifier(_ modifiers: DeclModifierListSyntax) -> String? {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return nil
    }

    /// Whether `kind` is an access level keyword.
    private static func isAccessKeyword(_ kind: TokenKind) -> Bool {
        [
            .keyword(.public), .keyword(.open), .keyword(.package), .keyword(.internal), .keyword(.fileprivate),
            .keyword(.private),
        ].contains(kind)
    }
}
