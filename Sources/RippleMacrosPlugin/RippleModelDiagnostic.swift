import SwiftDiagnostics

/// The errors the macros report, each naming what is wrong and what to write instead.
enum RippleModelDiagnostic: String, DiagnosticMessage {
    case notAClass
    case observers
    case severalBindings
    case stateFieldsNotAStruct

    var message: String {
        switch self {
        case .notAClass:
            "@RippleModel can only be applied to a class; a struct or an enum is a value, which Ripple cannot share with its readers"
        case .observers:
            "@RippleModel cannot keep 'willSet' or 'didSet' on a property it manages (its generated accessors would skip them); react to changes with 'bindings.<property>.didChange { }' or 'observe { }', or mark the property @RippleIgnored"
        case .severalBindings:
            "@RippleModel needs each stored property in a declaration of its own: write one 'var' per property"
        case .stateFieldsNotAStruct:
            "@StateFields can only be applied to a struct: it lists a store state's stored properties, and a store's state is a value; for another type, conform to 'StateFields' and list its 'stateFields' yourself"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "RippleMacros", id: rawValue) }

    var severity: DiagnosticSeverity { .error }
}
