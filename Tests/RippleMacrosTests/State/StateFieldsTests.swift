import Foundation
import RippleMacros
import RippleStore
import Testing

/// A state with every kind of member the macro lists or leaves out.
@StateFields
struct LibraryState: Equatable, Sendable {
    var count = 0
    var items: [Item] = []
    let id: UUID
    var x = 0, y = 0
    @Edge var books: [String] = []
    @CopyOnWrite var notes: [String] = []
    @Triggered var alert: String? = nil
    private var revision = 0
    var total: Int { items.count }
    static let shared = 0
    lazy var cache = 0
    @RippleIgnored var scratch = 0

    init(id: UUID = UUID()) {
        self.id = id
    }

    mutating func bump() { revision += 1 }
}

/// A public state: its list is public, as the conformance requires.
@StateFields
public struct PublicState: Equatable, Sendable {
    public var count = 0
    public init() {}
}

/// A generic state: its list is computed.
@StateFields
struct PageState<Element: Equatable & Sendable>: Equatable, Sendable {
    var elements: [Element] = []
    var page = 0
}

/// The number of fields, through the protocol: the conformance is usable in generic code.
func fieldCount<State: StateFields>(_: State.Type) -> Int {
    State.stateFields.count
}

@Suite("@StateFields states")
struct StateFieldsTests {
    @Test("every stored property is listed once, in declaration order, and nothing else")
    func listsStoredProperties() {
        let keyPaths = LibraryState.stateFields.map { $0.keyPath as AnyKeyPath }
        let expected: [AnyKeyPath] = [
            \LibraryState.count, \LibraryState.items, \LibraryState.id, \LibraryState.x, \LibraryState.y,
            \LibraryState.$books, \LibraryState.notes, \LibraryState.$alert,
        ]
        // The last is the private `revision`, which the extension reaches from the same file.
        #expect(keyPaths.count == 9)
        #expect(Array(keyPaths.prefix(8)) == expected)
        #expect(fieldCount(LibraryState.self) == 9)
        #expect(fieldCount(PublicState.self) == 1)
        #expect(PageState<Int>.stateFields.map { $0.keyPath as AnyKeyPath } == [\PageState<Int>.elements, \.page])
    }

    @Test("a Store of it commits, and derived values of its fields follow")
    func storeOfStateFields() {
        let store = Store<LibraryState, Never>(initialState: LibraryState())
        let count = store.derived(\.count)
        let titles = store.derived { $0.items.map(\.title) }
        let books = store.derived(from: \.$books) { $0.wrapped.count }
        store.commit { $0.count += 1 }
        store.commit { $0.items.append(Item(title: "Milk")) }
        store.commit { $0.books.append("Dune") }
        store.commit { $0.bump() }
        #expect(count.value == 1)
        #expect(titles.value == ["Milk"])
        #expect(books.value == 1)
        #expect(store.state.y == 0)
        #expect(store.version == 4)
    }

    @Test("a Store of a generic state commits and derives")
    func storeOfGenericState() {
        let store = Store<PageState<String>, Never>(initialState: PageState())
        let elements = store.derived(\.elements)
        store.commit { $0.elements.append("a") }
        store.commit { $0.page += 1 }
        #expect(elements.value == ["a"])
        #expect(store.state.page == 1)
    }
}
