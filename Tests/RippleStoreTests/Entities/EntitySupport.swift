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
