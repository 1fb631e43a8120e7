import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@StateFields` generates, checked against its source text with swift-syntax's macro
/// test support (the compiler's own conformance filtering is simulated by `conformances:`).
@Suite("@StateFields expansion")
struct StateFieldsExpansionTests {
    @Test("every stored property is listed, in declaration order, in a nonisolated conformance")
    func storedProperties() {
        expectStateFieldsExpansion(
            """
            @StateFields
            struct AppState: Equatable, Sendable {
                var count = 0
                var items: [Item] = []
            }
            """,
            expandsTo: """
                struct AppState: Equatable, Sendable {
                    var count = 0
                    var items: [Item] = []
                }

                extension AppState: nonisolated RippleStore.StateFields {
                    nonisolated static let stateFields: [RippleStore.StateField<AppState>] = [RippleStore.StateField(\\.count), RippleStore.StateField(\\.items)]
                }
                """
        )
    }

    @Test("lets and observed vars are listed; computed, static, lazy, ignored and wrapped ones are not")
    func propertiesLeftOut() {
        expectStateFieldsExpansion(
            """
            @StateFields
            struct AppState: Equatable, Sendable {
                var count = 0
                let id: UUID
                var total: Int { count * 2 }
                var title: String {
                    get { "" }
                    set {}
                }
                var logged = 0 {
                    didSet { print(logged) }
                }
                static var shared = 0
                static let defaultCount = 0
                lazy var cache = Cache()
                @RippleIgnored var scratch = 0
                @Ignored var offset = 0.0
                private var secret = ""
                func reset() {}
                struct Nested {
                    var inner = 0
                }
            }
            """,
            expandsTo: """
                struct AppState: Equatable, Sendable {
                    var count = 0
                    let id: UUID
                    var total: Int { count * 2 }
                    var title: String {
                        get { "" }
                        set {}
                    }
                    var logged = 0 {
                        didSet { print(logged) }
                    }
                    static var shared = 0
                    static let defaultCount = 0
                    lazy var cache = Cache()
                    var scratch = 0
                    @Ignored var offset = 0.0
                    private var secret = ""
                    func reset() {}
                    struct Nested {
                        var inner = 0
                    }
                }

                extension AppState: nonisolated RippleStore.StateFields {
                    nonisolated static let stateFields: [RippleStore.StateField<AppState>] = [RippleStore.StateField(\\.count), RippleStore.StateField(\\.id), RippleStore.StateField(\\.logged), RippleStore.StateField(\\.secret)]
                }
                """
        )
    }

    @Test("every binding of a declaration is listed, tuple patterns included")
    func severalBindings() {
        expectStateFieldsExpansion(
            """
            @StateFields
            struct Point: Equatable, Sendable {
                var x = 0, y = 0
                let (width, height): (Int, Int) = (1, 1)
            }
            """,
            expandsTo: """
                struct Point: Equatable, Sendable {
                    var x = 0, y = 0
                    let (width, height): (Int, Int) = (1, 1)
                }

                extension Point: nonisolated RippleStore.StateFields {
                    nonisolated static let stateFields: [RippleStore.StateField<Point>] = [RippleStore.StateField(\\.x), RippleStore.StateField(\\.y), RippleStore.StateField(\\.width), RippleStore.StateField(\\.height)]
                }
                """
        )
    }

    @Test("RippleStore's wrappers: @CopyOnWrite by value, @Edge and @Triggered by projected value")
    func rippleWrappers() {
        expectStateFieldsExpansion(
            """
            @StateFields
            struct LibraryState: Equatable, Sendable {
                @CopyOnWrite var document = Document()
                @Edge var books: [Book] = []
                @RippleStore.Triggered var alert: String? = nil
            }
            """,
            expandsTo: """
                struct LibraryState: Equatable, Sendable {
                    @CopyOnWrite var document = Document()
                    @Edge var books: [Book] = []
                    @RippleStore.Triggered var alert: String? = nil
                }

                extension LibraryState: nonisolated RippleStore.StateFields {
                    nonisolated static let stateFields: [RippleStore.StateField<LibraryState>] = [RippleStore.StateField(\\.document), RippleStore.StateField(\\.$books), RippleStore.StateField(\\.$alert)]
                }
                """
        )
    }

    @Test("a public struct gets a public list; a declared conformance gets only the list")
    func accessAndDeclaredConformance() {
        expectStateFieldsExpansion(
            """
            @StateFields
            public struct AppState: StateFields {
                public var count = 0
            }
            """,
            expandsTo: """
                public struct AppState: StateFields {
                    public var count = 0
                }

                extension AppState {
                    public nonisolated static let stateFields: [RippleStore.StateField<AppState>] = [RippleStore.StateField(\\.count)]
                }
                """,
            conformances: []
        )
    }

    @Test("a generic struct, which cannot have a static stored property, gets a computed list")
    func genericStruct() {
        expectStateFieldsExpansion(
            """
            @StateFields
            struct Page<Element: Equatable & Sendable>: Equatable, Sendable {
                var elements: [Element] = []
                @available(*, deprecated) var legacy = 0
            }
            """,
            expandsTo: """
                struct Page<Element: Equatable & Sendable>: Equatable, Sendable {
                    var elements: [Element] = []
                    @available(*, deprecated) var legacy = 0
                }

                extension Page: nonisolated RippleStore.StateFields {
                    nonisolated static var stateFields: [RippleStore.StateField<Page>] {
                        [RippleStore.StateField(\\.elements)]
                    }
                }
                """
        )
    }

    @Test("a class, an enum or an actor is refused")
    func nonStructsAreRefused() {
        for declaration in ["final class AppState", "enum AppState", "actor AppState"] {
            expectStateFieldsExpansion(
                """
                @StateFields
                \(declaration) {
                    var count: Int { 0 }
                }
                """,
                expandsTo: """
                    \(declaration) {
                        var count: Int { 0 }
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "@StateFields can only be applied to a struct: it lists a store state's stored properties, and a store's state is a value; for another type, conform to 'StateFields' and list its 'stateFields' yourself",
                        line: 1,
                        column: 1
                    )
                ]
            )
        }
    }

    @Test("a struct nested in a generic actor gets a computed list")
    func nestedInGenericActor() {
        expectStateFieldsExpansion(
            """
            actor Cache<Key> {
                @StateFields
                struct Entry: Equatable, Sendable {
                    var count = 0
                }
            }
            """,
            expandsTo: """
                actor Cache<Key> {
                    struct Entry: Equatable, Sendable {
                        var count = 0
                    }
                }

                extension Cache.Entry: nonisolated RippleStore.StateFields {
                    nonisolated static var stateFields: [RippleStore.StateField<Cache.Entry>] {
                        [RippleStore.StateField(\\.count)]
                    }
                }
                """
        )
    }

    @Test("a struct in a public extension, with no access modifier of its own, gets a public list")
    func inPublicExtension() {
        expectStateFieldsExpansion(
            """
            public extension Screens {
                @StateFields
                struct Feed: Equatable, Sendable {
                    public var count = 0
                }
            }
            """,
            expandsTo: """
                public extension Screens {
                    struct Feed: Equatable, Sendable {
                        public var count = 0
                    }
                }

                extension Screens.Feed: nonisolated RippleStore.StateFields {
                    public nonisolated static let stateFields: [RippleStore.StateField<Screens.Feed>] = [RippleStore.StateField(\\.count)]
                }
                """
        )
    }

    @Test("a struct with its own access modifier in a public extension keeps it")
    func ownModifierInPublicExtension() {
        expectStateFieldsExpansion(
            """
            public extension Screens {
                @StateFields
                internal struct Draft: Equatable, Sendable {
                    var text = ""
                }
            }
            """,
            expandsTo: """
                public extension Screens {
                    internal struct Draft: Equatable, Sendable {
                        var text = ""
                    }
                }

                extension Screens.Draft: nonisolated RippleStore.StateFields {
                    nonisolated static let stateFields: [RippleStore.StateField<Screens.Draft>] = [RippleStore.StateField(\\.text)]
                }
                """
        )
    }
}
