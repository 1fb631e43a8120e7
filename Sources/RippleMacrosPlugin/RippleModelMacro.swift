import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@RippleModel`: marks each stored `var` of the class for ``ModelPropertyMacro`` and adds the
/// conformances (`Observable`, `ObservableModel`, and `Sendable` when the compiler can check it).
public struct RippleModelMacro: MemberAttributeMacro, ExtensionMacro {
    /// `@_RippleModelProperty` on each stored `var` the macro manages; a diagnostic on one it
    /// refuses (a property with observers, several properties in one declaration).
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        // A non-class is reported once, by the extension role.
        guard declaration.is(ClassDeclSyntax.self) else { return [] }
        switch ModelMember(member) {
        case .managed:
            return ["@\(raw: ModelMember.propertyAttribute)"]
        case .refused(let message):
            context.diagnose(Diagnostic(node: member, message: message))
            return []
        case .unmanagedMutable, .other:
            return []
        }
    }

    /// The conformances, in a `nonisolated` extension: `Observable`, `ObservableModel`, and
    /// `Sendable` when the compiler can check it; a diagnostic for a declaration that is not a
    /// class.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: RippleModelDiagnostic.notAClass))
            return []
        }
        // `protocols` lists the conformances the class does not already declare.
        let missing = Set(protocols.map { $0.trimmed.description.split(separator: ".").last.map(String.init) ?? "" })
        var conformances: [String] = []
        if missing.contains("Observable") { conformances.append("Observation.Observable") }
        if missing.contains("ObservableModel") { conformances.append("RippleModels.ObservableModel") }
        if missing.contains("Sendable"), canBeCheckedSendable(classDecl) { conformances.append("Swift.Sendable") }
        if conformances.isEmpty { return [] }
        return [try ExtensionDeclSyntax("\(raw: extensionModifier)extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}")]
    }

    /// `nonisolated`, so that the conformances are usable from any isolation even when the class
    /// is main-actor isolated by default (`-default-isolation MainActor`, where conformances
    /// are otherwise inferred to be isolated and cannot satisfy a `Sendable` generic
    /// parameter: `ObservedModel`, `@Bindable`). None of the protocols has a requirement that
    /// touches isolated state. The plugin is built by the compiler that will expand it, so this
    /// checks that compiler's version: `nonisolated` extensions arrived in Swift 6.1.
    static var extensionModifier: String {
        #if compiler(>=6.1)
        "nonisolated "
        #else
        ""
        #endif
    }

    /// Whether a checked `Sendable` conformance can hold, as far as syntax tells: the class is
    /// `final` and every mutable stored property is one the macro manages (its storage is
    /// `Sendable`). The compiler checks the rest: that every `let` holds a `Sendable` type and
    /// that the superclass, if any, is `Sendable`.
    static func canBeCheckedSendable(_ classDecl: ClassDeclSyntax) -> Bool {
        guard classDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) else { return false }
        return classDecl.memberBlock.members.allSatisfy { item in
            switch ModelMember(item.decl) {
            case .managed, .other: true
            case .unmanagedMutable, .refused: false
            }
        }
    }
}
