import SwiftSyntax
import SwiftSyntaxMacros

/// `@RippleIgnored`: a marker that `@RippleModel` reads; it generates nothing.
public struct RippleIgnoredMacro: AccessorMacro {
    /// No accessors: the property stays as written.
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        []
    }
}
