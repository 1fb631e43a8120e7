/// Receives what a store does: each commit and each activity.
///
/// Give a logger to a store when you create it. It is called on the thread that delivers the
/// commit, after the commit has been delivered to the store's synchronous subscribers (for a
/// commit made inside `batch { }`, once the batch has been applied and delivered), with no lock
/// held, so ``StoreLog/Commit/woken`` names every subscriber the commit woke. Commits are
/// logged in version order.
///
/// ```swift
/// struct PrintLogger: StoreLogger {
///     func didCommit(_ commit: StoreLog.Commit) { print(commit) }
///     func didSendActivity(_ activity: StoreLog.Activity) { print(activity) }
/// }
/// let store = AppStore(initialState: AppState(), logger: PrintLogger())
/// ```
public protocol StoreLogger: Sendable {
    /// A commit ended: it changed the state (and was delivered) or changed nothing.
    func didCommit(_ commit: StoreLog.Commit)
    /// An activity was sent.
    func didSendActivity(_ activity: StoreLog.Activity)
}

extension StoreLogger {
    /// Does nothing.
    public func didSendActivity(_ activity: StoreLog.Activity) {}
}

/// The records a ``StoreLogger`` receives.
public enum StoreLog {
    /// Something a commit woke: a subscriber that received it, or a key-path slice or derived
    /// value that re-ran for it.
    public enum Wake: Sendable, Hashable, CustomStringConvertible {
        /// A subscriber (`sinkState` and its kind), named by where it was created.
        case subscriber(String)
        /// A key path of the state or a derived value that re-ran, named by its key path or
        /// where it was created.
        case derived(String)

        /// The kind and the name.
        public var description: String {
            switch self {
            case .subscriber(let name): "subscriber \(name)"
            case .derived(let name): "derived \(name)"
            }
        }
    }

    /// One commit.
    public struct Commit: Sendable, CustomStringConvertible {
        /// The store's name (its type, unless given one).
        public let store: String
        /// The commit's name, place and metadata.
        public let transaction: Transaction
        /// The version the commit produced (or, when it changed nothing, the current one).
        public let version: UInt64
        /// Whether the commit changed the state. A commit that changed nothing is delivered to
        /// no one.
        public let changed: Bool
        /// From the start of the mutation to the end of the delivery to synchronous subscribers.
        public let duration: Duration
        /// The subscribers and derived values the commit woke, in the order they ran. Those on
        /// another executor run later and are not listed.
        public let woken: [Wake]

        /// One line: store, commit, version, duration and what it woke.
        public var description: String {
            guard changed else { return "[\(store)] \(transaction): no change" }
            let list = woken.isEmpty ? "" : ", woke \(woken.map(\.description).joined(separator: ", "))"
            return "[\(store)] \(transaction) → version \(version) in \(duration)\(list)"
        }
    }

    /// One activity.
    public struct Activity: Sendable, CustomStringConvertible {
        /// The store's name.
        public let store: String
        /// The activity, described.
        public let activity: String

        /// One line: store and activity.
        public var description: String { "[\(store)] activity \(activity)" }
    }
}

/// A logger that prints each commit and activity, one line each.
///
/// ```swift
/// let store = AppStore(initialState: AppState(), logger: PrintStoreLogger())
/// store.commit("increment") { $0.count += 1 }
/// // [AppStore] increment → version 1 in … seconds, woke subscriber AppView.swift:12
/// ```
public struct PrintStoreLogger: StoreLogger {
    private let write: @Sendable (String) -> Void

    /// Creates a logger that prints to standard output, or passes each line to `write`.
    public init(write: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.write = write
    }

    /// Prints the commit.
    public func didCommit(_ commit: StoreLog.Commit) { write(commit.description) }

    /// Prints the activity.
    public func didSendActivity(_ activity: StoreLog.Activity) { write(activity.description) }
}
