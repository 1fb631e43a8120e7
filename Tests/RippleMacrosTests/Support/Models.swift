import Foundation
import RippleMacros

/// A to-do item: `Equatable`, so writes of an equal list change nothing.
struct Item: Equatable, Sendable {
    var title: String
    var isDone = false
}

enum Filter: Sendable {
    case all, open, done
}

/// Not `Equatable`: every write is a change.
struct Cursor: Sendable {
    var position: Int
}

/// The model the issue describes, with the kinds of members the macro must leave alone.
@RippleModel
final class TodoList {
    var items: [Item] = []
    var filter = Filter.all
    var count: Int = 0
    var cursor = Cursor(position: 0)
    var note: String?
    private(set) var revision = 0
    let title: String
    var remaining: Int { items.filter { !$0.isDone }.count }
    static let defaultTitle = "To do"

    init(title: String = defaultTitle) {
        self.title = title
    }

    /// Assigns a property that also has an initial value: its storage is initialized twice.
    init(title: String, filter: Filter, note: String) {
        self.title = title
        self.filter = filter
        self.note = note
    }

    func add(_ title: String) {
        items.append(Item(title: title))
        revision += 1
    }
}

/// A model whose isolation makes it `Sendable`.
@MainActor
@RippleModel
final class MainActorCounter {
    var count = 0
    /// Thread-safe storage: a `nonisolated` property can be read, written and bound anywhere.
    nonisolated var shared = 0
    @RippleIgnored var renders = 0
}

/// A main-actor model whose state the macro all manages: still no `SendableModel`, so its
/// bindings are main-actor bindings.
@MainActor
@RippleModel
final class MainActorTally {
    var count = 0
}

/// A model with a property whose name needs backticks.
@RippleModel
final class Preferences {
    var `default` = false
}

/// A model with state the macro does not manage: no generated `Sendable`.
@RippleModel
final class Scratchpad {
    var text = ""
    @RippleIgnored var edits = 0 {
        didSet { lastEdit = edits }
    }
    @RippleIgnored var lastEdit = 0
}

/// A thread-safe log that handlers append to.
final class Log<Element: Sendable>: Sendable {
    private let storage = Stored<[Element]>([], equals: nil)

    func append(_ element: Element) { storage.update { $0.append(element) } }
    var all: [Element] { untracked { storage.value } }
    var count: Int { all.count }
}

/// Compile-time checks: these only accept conforming models.
func requireObservable(_: some Observable) {}
func requireSendable(_: some Sendable) {}
func requireObservableModel(_: some ObservableModel) {}
