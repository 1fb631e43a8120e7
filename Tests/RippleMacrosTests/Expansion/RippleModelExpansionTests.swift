import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@RippleModel` generates, checked against its source text with swift-syntax's macro
/// test support (the compiler's own conformance filtering is simulated by `conformances:`).
@Suite("@RippleModel expansion")
struct RippleModelExpansionTests {
    @Test("each stored var gets storage and accessors; the class gets the three conformances")
    func storedProperties() {
        expectExpansion(
            """
            @RippleModel
            final class TodoList {
                var items: [Item] = []
                var filter = Filter.all
            }
            """,
            expandsTo: """
                final class TodoList {
                    var items: [Item] {
                        @storageRestrictions(initializes: _items)
                        init(initialValue) {
                            _items = RippleMacros._ModelPropertyStorage(initialValue, name: "TodoList.items")
                        }
                        get {
                            _items[]
                        }
                        set {
                            _items[] = newValue
                        }
                        _modify {
                            yield &_items[]
                        }
                    }

                    private nonisolated(unsafe) var _items: RippleMacros._ModelPropertyStorage
                    var filter {
                        @storageRestrictions(initializes: _filter)
                        init(initialValue) {
                            _filter = RippleMacros._ModelPropertyStorage(initialValue, name: "TodoList.filter")
                        }
                        get {
                            _filter[]
                        }
                        set {
                            _filter[] = newValue
                        }
                        _modify {
                            yield &_filter[]
                        }
                    }

                    private nonisolated(unsafe) var _filter: RippleMacros._ModelPropertyStorage
                }

                extension TodoList: nonisolated Observation.Observable, nonisolated RippleModels.ObservableModel, RippleModels.SendableModel, Swift.Sendable {
                }
                """
        )
    }

    @Test("lets, computed, static, lazy, weak and wrapped properties are left alone")
    func propertiesLeftAlone() {
        expectExpansion(
            """
            @RippleModel
            class Document {
                let id: Int
                var summary: String { "" }
                var title: String {
                    get { "" }
                    set {}
                }
                static var count = 0
                lazy var cache = Cache()
                weak var delegate: Delegate?
                @Observed var legacy = 0
                @RippleIgnored var scratch = 0
                func save() {}
            }
            """,
            expandsTo: """
                class Document {
                    let id: Int
                    var summary: String { "" }
                    var title: String {
                        get { "" }
                        set {}
                    }
                    static var count = 0
                    lazy var cache = Cache()
                    weak var delegate: Delegate?
                    @Observed var legacy = 0
                    var scratch = 0
                    func save() {}
                }

                extension Document: Observation.Observable, RippleModels.ObservableModel {
                }
                """
        )
    }

    @Test("modifiers stay on the property: access levels, nonisolated")
    func modifiersAreKept() {
        expectExpansion(
            """
            @RippleModel
            @MainActor
            public final class Counter {
                public private(set) var count = 0
                nonisolated var shared: Int = 0
            }
            """,
            expandsTo: """
                @MainActor
                public final class Counter {
                    public private(set) var count {
                        @storageRestrictions(initializes: _count)
                        init(initialValue) {
                            _count = RippleMacros._ModelPropertyStorage(initialValue, name: "Counter.count")
                        }
                        get {
                            _count[]
                        }
                        set {
                            _count[] = newValue
                        }
                        _modify {
                            yield &_count[]
                        }
                    }

                    private nonisolated(unsafe) var _count: RippleMacros._ModelPropertyStorage
                    nonisolated var shared: Int {
                        @storageRestrictions(initializes: _shared)
                        init(initialValue) {
                            _shared = RippleMacros._ModelPropertyStorage(initialValue, name: "Counter.shared")
                        }
                        get {
                            _shared[]
                        }
                        set {
                            _shared[] = newValue
                        }
                        _modify {
                            yield &_shared[]
                        }
                    }

                    private nonisolated(unsafe) var _shared: RippleMacros._ModelPropertyStorage
                }

                extension Counter: Observation.Observable, RippleModels.ObservableModel {
                }
                """
        )
    }

    @Test("no Sendable conformance for a class that is not final or holds unmanaged mutable state")
    func sendableOnlyWhenCheckable() {
        for (declaration, member, expanded) in [
            ("class Model", "var count: Int", nil),
            ("final class Model", "@RippleIgnored var count = 0", "var count = 0"),
            ("final class Model", "lazy var count = 0", nil),
            ("final class Model", "unowned var owner: Owner", nil),
            ("final class Model", "@Persisted(\"count\") var count = 0", nil),
        ] {
            let body =
                declaration == "class Model"
                ? """
                    var count: Int {
                        @storageRestrictions(initializes: _count)
                        init(initialValue) {
                            _count = RippleMacros._ModelPropertyStorage(initialValue, name: "Model.count")
                        }
                        get {
                            _count[]
                        }
                        set {
                            _count[] = newValue
                        }
                        _modify {
                            yield &_count[]
                        }
                    }

                    private nonisolated(unsafe) var _count: RippleMacros._ModelPropertyStorage
                """
                : "    \(expanded ?? member)"
            expectExpansion(
                "@RippleModel\n\(declaration) {\n    \(member)\n}",
                expandsTo: """
                    \(declaration) {
                    \(body)
                    }

                    extension Model: Observation.Observable, RippleModels.ObservableModel {
                    }
                    """
            )
        }
    }

    @Test("conformances the class already declares are not added again")
    func existingConformances() {
        expectExpansion(
            """
            @RippleModel
            final class Model: SendableModel, @unchecked Sendable {
                let id = 0
            }
            """,
            expandsTo: """
                final class Model: SendableModel, @unchecked Sendable {
                    let id = 0
                }

                extension Model: nonisolated Observation.Observable {
                }
                """,
            conformances: ["Observable"]
        )
    }

    @Test("willSet and didSet on a managed property are refused, not silently dropped")
    func observersAreRefused() {
        expectExpansion(
            """
            @RippleModel
            final class Model {
                var count = 0 {
                    didSet { print(count) }
                }
            }
            """,
            expandsTo: """
                final class Model {
                    var count = 0 {
                        didSet { print(count) }
                    }
                }

                extension Model: Observation.Observable, RippleModels.ObservableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@RippleModel cannot keep 'willSet' or 'didSet' on a property it manages (its generated accessors would skip them); react to changes with 'bindings.<property>.didChange { }' or 'observe { }', or mark the property @RippleIgnored",
                    line: 3,
                    column: 5
                )
            ]
        )
    }

    @Test("several properties in one declaration are refused")
    func severalBindingsAreRefused() {
        expectExpansion(
            """
            @RippleModel
            final class Model {
                var x = 0, y = 0
            }
            """,
            expandsTo: """
                final class Model {
                    var x = 0, y = 0
                }

                extension Model: Observation.Observable, RippleModels.ObservableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@RippleModel needs each stored property in a declaration of its own: write one 'var' per property",
                    line: 3,
                    column: 5
                )
            ]
        )
    }

    @Test("a struct is refused")
    func structIsRefused() {
        expectExpansion(
            """
            @RippleModel
            struct Model {
                var count = 0
            }
            """,
            expandsTo: """
                struct Model {
                    var count = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@RippleModel can only be applied to a class; a struct or an enum is a value, which Ripple cannot share with its readers",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test("a property whose name needs backticks gets storage named without them")
    func backtickedName() {
        expectExpansion(
            """
            @RippleModel
            final class Settings {
                var `default` = false
            }
            """,
            expandsTo: """
                final class Settings {
                    var `default` {
                        @storageRestrictions(initializes: _default)
                        init(initialValue) {
                            _default = RippleMacros._ModelPropertyStorage(initialValue, name: "Settings.default")
                        }
                        get {
                            _default[]
                        }
                        set {
                            _default[] = newValue
                        }
                        _modify {
                            yield &_default[]
                        }
                    }

                    private nonisolated(unsafe) var _default: RippleMacros._ModelPropertyStorage
                }

                extension Settings: nonisolated Observation.Observable, nonisolated RippleModels.ObservableModel, RippleModels.SendableModel, Swift.Sendable {
                }
                """
        )
    }

    @Test("mutable state the macro leaves alone inside #if costs the generated Sendable conformance")
    func unmanagedStateInIfConfig() {
        expectExpansion(
            """
            @RippleModel
            final class Model {
                #if DEBUG
                @RippleIgnored var scratch = 0
                #else
                let scratch = 0
                #endif
            }
            """,
            expandsTo: """
                final class Model {
                    #if DEBUG
                    var scratch = 0
                    #else
                    let scratch = 0
                    #endif
                }

                extension Model: Observation.Observable, RippleModels.ObservableModel {
                }
                """
        )
    }

    @Test("a @MainActor class gets no SendableModel: its bindings stay on the main actor")
    func mainActorClassIsNoSendableModel() {
        expectExpansion(
            """
            @MainActor
            @RippleModel
            final class Tally {
            }
            """,
            expandsTo: """
                @MainActor
                final class Tally {
                }

                extension Tally: Observation.Observable, RippleModels.ObservableModel {
                }
                """
        )
    }

    @Test("an actor is refused with a diagnostic that names actors")
    func actorIsRefused() {
        expectExpansion(
            """
            @RippleModel
            actor Model {
                var count = 0
            }
            """,
            expandsTo: """
                actor Model {
                    var count = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@RippleModel can only be applied to a class; an actor already protects its state, which its readers reach only through it: use a final class, with @MainActor if its state belongs to the main actor",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test("a property whose storage name the class declares is refused by name")
    func storageNameTaken() {
        expectExpansion(
            """
            @RippleModel
            final class Model {
                var count = 0
                let _count = 1
            }
            """,
            expandsTo: """
                final class Model {
                    var count = 0
                    let _count = 1
                }

                extension Model: Observation.Observable, RippleModels.ObservableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@RippleModel stores this property in a private property named like it with a leading underscore, which the class declares already: rename one of them",
                    line: 3,
                    column: 5
                )
            ]
        )
    }
}
