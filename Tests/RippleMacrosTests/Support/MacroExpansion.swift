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

/// `assertMacroExpansion`, reporting to Swift Testing. `conformances` are those the type does not
/// already have, which the compiler passes to the extension role.
func expectExpansion(
    _ source: String,
    expandsTo expected: String,
    diagnostics: [DiagnosticSpec] = [],
    conformances: [String] = ["Observable", "ObservableModel", "Sendable", "SendableModel"],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    var macros = rippleMacros
    macros["RippleModel"] = MacroSpec(
        type: RippleModelMacro.self,
        conformances: conformances.map { TypeSyntax(IdentifierTypeSyntax(name: .identifier($0))) })
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

/// `assertMacroExpansion` of `@StateFields`, reporting to Swift Testing. `conformances` are those
/// the struct does not already have, which the compiler passes to the extension role.
func expectStateFieldsExpansion(
    _ source: String,
    expandsTo expected: String,
    diagnostics: [DiagnosticSpec] = [],
    conformances: [String] = ["StateFields"],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    var macros = rippleMacros
    macros["StateFields"] = MacroSpec(
        type: StateFieldsMacro.self,
        conformances: conformances.map { TypeSyntax(IdentifierTypeSyntax(name: .identifier($0))) })
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
