import RippleMacrosPlugin
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, by the names the sources use.
let rippleMacros: [String: MacroSpec] = [
    "_RippleModelProperty": MacroSpec(type: ModelPropertyMacro.self),
    "RippleIgnored": MacroSpec(type: RippleIgnoredMacro.self),
]

/// `assertMacroExpansion` of `@RippleModel`, reporting to Swift Testing. `conformances` are those
/// the type does not already have, which the compiler passes to the extension role.
func expectExpansion(
    _ source: String,
    expandsTo expected: String,
    diagnostics: [DiagnosticSpec] = [],
    conformances: [String] = ["Observable", "ObservableModel", "Sendable", "SendableModel"],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    expectExpansion(
        of: "RippleModel", RippleModelMacro.self, source, expandsTo: expected, diagnostics: diagnostics,
        conformances: conformances, sourceLocation: sourceLocation)
}

/// `assertMacroExpansion` of `@StateFields`, reporting to Swift Testing. `conformances` are those
/// the struct does not already have, which the compiler passes to the extension role.
func expectStateFieldsExpansion(
    _ source: String,
    expandsTo expected: String,
    diagnostics: [DiagnosticSpec] = [],
    conformances: [String] = ["StateFields"],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    expectExpansion(
        of: "StateFields", StateFieldsMacro.self, source, expandsTo: expected, diagnostics: diagnostics,
        conformances: conformances, sourceLocation: sourceLocation)
}

/// `assertMacroExpansion` of the attached macro `name`, implemented by `type`, with the
/// conformances the compiler passes to its extension role.
private func expectExpansion(
    of name: String,
    _ type: any Macro.Type,
    _ source: String,
    expandsTo expected: String,
    diagnostics: [DiagnosticSpec],
    conformances: [String],
    sourceLocation: Testing.SourceLocation
) {
    var macros = rippleMacros
    macros[name] = MacroSpec(
        type: type, conformances: conformances.map { TypeSyntax(IdentifierTypeSyntax(name: .identifier($0))) })
    assertMacroExpansion(
        source,
        expandedSource: expected,
        diagnostics: diagnostics,
        macroSpecs: macros,
        indentationWidth: .spaces(4),
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    )
}
