import Foundation
import RippleStore

struct ENTodoList: Identifiable, Equatable, Codable, Sendable {
    var id: Int
    var name: String
}

struct ENTodo: Identifiable, Equatable, Codable, Sendable, IndexedEntity {
    var id: Int
    var title: String
    var listID: Int?
    var rank = 0

    static var indexes: [EntityIndex<ENTodo>] {
        [.ordered(by: \.title), .ordered(by: \.rank), .grouped(by: \.listID)]
    }
}

struct ENTag: Identifiable, Equatable, Codable, Sendable, IndexedEntity {
    var id: String
    var todoID: Int?

    static var indexes: [EntityIndex<ENTag>] { [.grouped(by: \.todoID)] }
}

struct ENNote: Identifiable, Equatable, Codable, Sendable {
    var id: Int
    var todoID: Int?
}

struct ENDatabase: EntityDatabase, Codable {
    var lists = EntityTable<ENTodoList>()
    var todos = EntityTable<ENTodo>()
    var tags = EntityTable<ENTag>()
    var notes = EntityTable<ENNote>()

    static var relationships: [EntityRelationship<ENDatabase>] {
        [
            .reference(from: \.todos, by: \.listID, to: \.lists, onDelete: .cascade),
            .reference(from: \.tags, by: \.todoID, to: \.todos, onDelete: .nullify),
            .reference(from: \.notes, by: \.todoID, to: \.todos, onDelete: .leave),
        ]
    }
}

/// A node of a tree kept in one table: deleting a node deletes its children.
struct ENTreeNode: Identifiable, Equatable, Sendable, IndexedEntity {
    var id: Int
    var parentID: Int?

    static var indexes: [EntityIndex<ENTreeNode>] { [.grouped(by: \.parentID)] }
}

struct ENTreeDatabase: EntityDatabase {
    var nodes = EntityTable<ENTreeNode>()
    var tags = EntityTable<ENTag>()

    static var relationships: [EntityRelationship<ENTreeDatabase>] {
        [
            .reference(from: \.nodes, by: \.parentID, to: \.nodes, onDelete: .cascade),
            .reference(from: \.tags, by: \.todoID, to: \.nodes, onDelete: .nullify),
        ]
    }
}

struct ENState: Equatable, Sendable {
    var database = ENDatabase()
    var title = ""
}

/// A key whose hash is chosen by the test, to force collisions in the trie.
struct ENCollidingKey: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    let bucket: Int

    func hash(into hasher: inout Hasher) { hasher.combine(bucket) }
    static func == (lhs: ENCollidingKey, rhs: ENCollidingKey) -> Bool { lhs.value == rhs.value }
    var description: String { "\(value)" }
}

/// An id that counts how often it is compared, in a counter its table's ids share.
struct ENCountedID: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    let comparisons: ENCounter

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
    static func == (lhs: ENCountedID, rhs: ENCountedID) -> Bool {
        lhs.comparisons.increment()
        return lhs.value == rhs.value
    }
    var description: String { "\(value)" }
}

struct ENCounted: Identifiable, Equatable, Sendable {
    var id: ENCountedID
    var payload: Int
}

struct ENColliding: Identifiable, Equatable, Sendable {
    var id: ENCollidingKey
    var payload: Int
}

/// A deterministic random number generator (SplitMix64).
struct ENRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class ENCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A thread-safe value for the entity tests.
final class ENBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// A store whose todo 1 is titled "initial", for the tests of a commit that waits in a batch.
func storeWithOneTodo() throws -> Store<ENState, Never> {
    var state = ENState()
    try state.database.todos.insert(ENTodo(id: 1, title: "initial"))
    return Store<ENState, Never>(initialState: state)
}

/// On another thread, inside a `batch`, commits todo 1's title "from the batch"; runs
/// `whileWaiting` on this thread once that commit is made and before its batch ends (the
/// commit released the store's gate, so a commit made there is published at once), then
/// returns when the batch has ended.
func whileABatchedCommitWaits(in store: Store<ENState, Never>, _ whileWaiting: () throws -> Void) rethrows {
    let batchCommitted = DispatchSemaphore(value: 0)
    let otherCommitted = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        batch {
            try? store.commit { try $0.database.todos.update(1) { $0.title = "from the batch" } }
            batchCommitted.signal()
            otherCommitted.wait()
        }
        finished.signal()
    }
    batchCommitted.wait()
    defer {
        otherCommitted.signal()
        finished.wait()
    }
    try whileWaiting()
}
