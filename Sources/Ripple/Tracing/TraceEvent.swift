/// Something the graph did, as a ``GraphTracer`` receives it: a write, an evaluation, a
/// reaction's run (with what made it run), a batch's start and end, a store's commit.
///
/// Values are given as text (`CustomStringConvertible` where they conform, else
/// `String(describing:)`), made once the graph's lock is released, on the thread that did the
/// work, in the order it did it.
///
/// ```swift
/// let recorder = TraceRecorder()
/// let tracing = installTracer(recorder)
/// count.value = 2
/// print(recorder.lines)   // ["write 'count': 1 → 2", "run 'render': 'count' 1 → 2"]
/// ```
public struct TraceEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A stored value was written: its value before and after. Inside a batch, `old` is
        /// the value committed before the batch. A write of a value equal to the current one
        /// (inside a batch, to the one the batch's view holds) is not traced.
        case write(old: String, new: String)
        /// A computed value was re-evaluated; `changed` says whether its value changed (a
        /// value equal to the previous one stops there).
        case evaluation(changed: Bool)
        /// A reaction ran, with the sources that changed since its last run (empty for its
        /// first run).
        case reactionRun(changes: [SourceChange])
        /// A batch (or a round of writes made inside reactions) started staging writes.
        case batchStart
        /// That batch applied its writes.
        case batchEnd
        /// A store committed a transaction, and these reactions ran because of it.
        case commit(transaction: String, woke: [String])
    }

    /// What happened.
    public var kind: Kind
    /// The node it happened to: its name, or its kind and where it was created
    /// (`Stored@LoginManager.swift:12`); for a batch, `batch`; for a commit, the store.
    public var node: String
    /// The thread it happened on: `main`, or a number that tells threads apart.
    public var thread: String

    /// Creates an event.
    public init(kind: Kind, node: String, thread: String) {
        self.kind = kind
        self.node = node
        self.thread = thread
    }

    /// One line, such as `write 'count': 1 → 2` or `run 'render': 'count' 1 → 2`.
    public var description: String {
        switch kind {
        case .write(let old, let new): "write \(node): \(old) → \(new)"
        case .evaluation(let changed): "evaluate \(node): \(changed ? "changed" : "unchanged")"
        case .reactionRun(let changes):
            changes.isEmpty
                ? "run \(node) (first run)" : "run \(node): " + changes.map(\.description).joined(separator: ", ")
        case .batchStart: "batch start"
        case .batchEnd: "batch end"
        case .commit(let transaction, let woke):
            "commit \(node) \(transaction): woke " + (woke.isEmpty ? "nothing" : woke.joined(separator: ", "))
        }
    }
}

/// A source of a reaction that changed since the reaction's last run: its name, and its value
/// then and now (``whyDidThisRun()``).
public struct SourceChange: Sendable, Hashable, CustomStringConvertible {
    /// The source's name, or its kind and where it was created.
    public var source: String
    /// Its value at the reaction's last run, when known: Ripple keeps the values a reaction
    /// saw only for named reactions (`observe(named:)`) and those that asked
    /// ``whyDidThisRun()``.
    public var oldValue: String?
    /// Its value now.
    public var newValue: String?

    /// Creates a source change.
    public init(source: String, oldValue: String?, newValue: String?) {
        self.source = source
        self.oldValue = oldValue
        self.newValue = newValue
    }

    /// `'count' 1 → 2`, or just the name when the values are unknown.
    public var description: String {
        switch (oldValue, newValue) {
        case (let old?, let new?): "\(source) \(old) → \(new)"
        case (nil, let new?): "\(source) → \(new)"
        default: source
        }
    }
}
