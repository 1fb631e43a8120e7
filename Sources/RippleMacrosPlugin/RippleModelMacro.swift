import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@RippleModel`: marks each stored `var` of the class for ``ModelPropertyMacro`` and adds the
/// conformances (`Observable`, `ObservableModel`, and `Sendable` and `SendableModel` when the
/// compiler can check it).
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
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else { return [] }
        switch ModelMember(member) {
        case .managed:
            if storageNameIsTaken(member, in: classDecl) {
                context.diagnose(Diagnostic(node: member, message: RippleModelDiagnostic.storageNameTaken))
                return []
            }
            return ["@\(raw: ModelMember.propertyAttribute)"]
        case .refused(let message):
            context.diagnose(Diagnostic(node: member, message: message))
            return []
        case .unmanagedMutable, .other:
            return []
        }
    }

    /// Whether the class declares the name of the storage that `member`, a property the macro
    /// would manage, needs (`_count` for `count`).
    private static func storageNameIsTaken(_ member: some DeclSyntaxProtocol, in classDecl: ClassDeclSyntax) -> Bool {
        guard let name = ModelPropertyMacro.propertyName(member, judgedAs: .managed) else { return false }
        return declaresMember(named: "_\(name)", in: classDecl.memberBlock.members)
    }

    /// Whether `members` (or their `#if` branches) declare a property or a method named `name`
    /// (the storage a managed property needs).
    private static func declaresMember(named name: String, in members: MemberBlockItemListSyntax) -> Bool {
        members.contains { item in
            if let block = item.decl.as(IfConfigDeclSyntax.self) {
                return block.clauses.contains { clause in
                    guard case .decls(let members)? = clause.elements else { return false }
                    return declaresMember(named: name, in: members)
                }
            }
            if let variable = item.decl.as(VariableDeclSyntax.self) {
                return variable.bindings.contains { $0.pattern.identifiers.contains(name) }
            }
            if let function = item.decl.as(FunctionDeclSyntax.self) {
                return function.name.identifier?.name == name
            }
            return false
        }
    }

    /// The conformances, in an extension that takes the module's default isolation:
    /// `Observable`, `ObservableModel`, and `Sendable` and `SendableModel` when the compiler can
    /// check it; a
    /// diagnostic for a declaration that is not a class.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            let message: RippleModelDiagnostic = declaration.is(ActorDeclSyntax.self) ? .actor : .notAClass
            context.diagnose(Diagnostic(node: node, message: message))
            return []
        }
        // `protocols` lists the conformances the class does not already declare.
        let missing = Set(protocols.map { $0.trimmed.description.split(separator: ".").last.map(String.init) ?? "" })
        var conformances: [String] = []

        // A class checked `Sendable` is a `SendableModel`: its accessors only touch thread-safe
        // storage, so bindings to it may be used on any thread. Its `ObservableModel`
        // and `Observable` conformances are then `nonisolated` (`SendableModel` refines them, and
        // a `Sendable` protocol's conformance is never isolated); any other class's take the module's
        // default, and a main-actor model gets main-actor bindings.
        let checkedSendable = canBeCheckedSendable(classDecl)
        if missing.contains("Observable") {
            conformances.append(checkedSendable ? "nonisolated Observation.Observable" : "Observation.Observable")
        }
        if missing.contains("ObservableModel") {
            conformances.append(
                checkedSendable ? "nonisolated RippleModels.ObservableModel" : "RippleModels.ObservableModel")
        }
        if missing.contains("SendableModel"), checkedSendable { conformances.append("RippleModels.SendableModel") }
        if missing.contains("Sendable"), checkedSendable { conformances.append("Swift.Sendable") }
        if conformances.isEmpty { return [] }
        return [
            try ExtensionDeclSyntax(
                "\(raw: extensionModifier)extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}")
        ]
    }

    /// No modifier: the extension, like the class, takes the class's isolation (a `nonisolated`
    /// extension made a `@MainActor` class's conformances nonisolated). In a module that is
    /// main-actor isolated by default the class itself is not inferred main-actor: the macro
    /// declares that it may add `Sendable`, and Swift infers no main actor for such a type, so
    /// a model there is marked `@MainActor` by hand (documented). The conformances stay usable
    /// from any isolation: `Observable` and `ObservableModel` have no requirement that an
    /// isolated member would witness.
    static var extensionModifier: String { "" }

    /// Whether a checked `Sendable` conformance can hold, as far as syntax tells: the class is
    /// `final`, not isolated to a global actor (a `@MainActor` class is `Sendable` by its
    /// isolation, and its bindings must stay on its actor), and every mutable stored property
    /// is one the macro manages (its storage is `Sendable`), in every `#if` branch. The compiler
    /// checks the rest: that every `let` holds a `Sendable` type and that the superclass, if
    /// any, is `Sendable`.
    static func canBeCheckedSendable(_ classDecl: ClassDeclSyntax) -> Bool {
        guard classDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) else { return false }
        let isGlobalActorIsolated = classDecl.attributes.contains { element in
            element.as(AttributeSyntax.self)?.name == "MainActor"
        }
        return !isGlobalActorIsolated && holdsOnlyManagedState(classDecl.memberBlock.members)
            && !classDecl.memberBlock.members.contains { storageNameIsTaken($0.decl, in: classDecl) }
    }

    /// Whether every mutable stored property among `members`, and in the branches of their
    /// `#if` blocks, is one the macro manages.
    private static func holdsOnlyManagedState(_ members: MemberBlockItemListSyntax) -> Bool {
        members.allSatisfy { item in
            if let block = item.decl.as(IfConfigDeclSyntax.self) {
                return block.clauses.allSatisfy { clause in
                    guard case .decls(let members)? = clause.elements else { return true }
                    return holdsOnlyManagedState(members)
                }
            }
            switch ModelMember(item.decl) {
            case .managed, .other: return true
            case .unmanagedMutable, .refused: return false
            }
        }
    }
}
