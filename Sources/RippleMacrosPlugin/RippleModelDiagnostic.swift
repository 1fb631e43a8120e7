import SwiftDiagnostics

/// The errors the macros report, each naming what is wrong and what to write instead.
enum RippleModelDiagnostic: String, DiagnosticMessage {
    case notAClass
    case actor
    case storageNameTaken
    case observers
    case severalBindings
    case stateFieldsNotAStruct

    var message: String {
        switch self {
        case .notAClass:
            "@RippleModel can only be applied to a class; a struct or an enum is a value, which Ripple cannot share with its readers"
        case .actor:
            "@RippleModel can only be applied to a class; an actor already protects its state, which its readers reach only through it: use a final class, with @MainActor if its state belongs to the main actor"
        case .storageNameTaken:
            "@RippleModel stores this property in a private property named like it with a leading underscore, which the class declares already: rename one of them"
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
