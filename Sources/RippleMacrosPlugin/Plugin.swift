import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that implements the macros declared in `RippleMacros`.
@main
struct RippleMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        RippleModelMacro.self,
        ModelPropertyMacro.self,
        RippleIgnoredMacro.self,
        StateFieldsMacro.self,
    ]
}
