import Ripple

/// Something a thread may have to wait for while another thread holds it: a store's gate
/// (``_StoreCore``), a reducer store's queue (``_ReducerEngine``).
protocol _Waitable: AnyObject, Sendable {
    /// The store's name, for the message of a wait that can never end.
    var waitName: String { get }
    /// The thread that `waiter` waits for now (0: none, it may go on), and whether `waiter`
    /// could stop waiting by handing its work to that thread. Takes the resource's own lock;
    /// called with the registry's held (the registry's lock comes first, never the other way).
    func blocker(of waiter: UInt) -> (thread: UInt, canHandOver: Bool)
    /// Wakes the threads waiting for this resource, to check again for a cycle.
    func wakeToRecheck()
}

/// Who waits for what, across every store: a thread that is about to wait records what it waits
/// for and follows the chain of holders. When the chain comes back to it, waiting would never
/// end (each thread of the cycle holds what the next one waits for): a thread of the cycle that
/// can hand its work over does so, instead of waiting.
///
/// Only threads that must wait come here: a commit or a send that finds its store free never
/// touches the registry.
final class _WaitRegistry: @unchecked Sendable {
    static let shared = _WaitRegistry()

    private let lock = _Lock()
    // Guarded by `lock`: what each waiting thread waits for.
    private var waiting: [UInt: any _Waitable] = [:]

    /// What a thread about to wait must do.
    enum Verdict {
        /// Wait: no cycle, or one another thread of it resolves (it was woken to).
        case wait
        /// Hand the work over: waiting would close a cycle.
        case handOver
        /// No thread of the cycle can hand its work over: the message names the stores.
        case deadlock(String)
    }

    /// Records that `me` waits for `resource` (until ``done(_:)``), and returns what it must do.
    func check(_ me: UInt, waitingFor resource: any _Waitable) -> Verdict {
        lock.lock()
        defer { lock.unlock() }
        waiting[me] = resource
        var edges: [(waiter: UInt, resource: any _Waitable, canHandOver: Bool)] = []
        var seen: Set<UInt> = [me]
        var thread = me
        var current = resource
        while true {
            let (holder, canHandOver) = current.blocker(of: thread)
            if holder == 0 { return .wait }
            edges.append((thread, current, canHandOver))
            if holder == me { break }
            // A thread seen twice: a cycle that does not go through `me` (its own threads see it).
            guard seen.insert(holder).inserted, let next = waiting[holder] else { return .wait }
            thread = holder
            current = next
        }
        if edges[0].canHandOver { return .handOver }
        if let other = edges.dropFirst().first(where: \.canHandOver) {
            other.resource.wakeToRecheck()
            return .wait
        }
        let names = edges.map(\.resource.waitName)
        return .deadlock(
            "RippleStore: a commit to \(names[0]) waits for \(names.count > 1 ? names[1] : names[0]), which waits for it (stores in the cycle: \(names.joined(separator: " → ")) → \(names[0])): a commit made inside the mutation of another store's commit cannot be handed over. Commit to the other store after the mutation returns."
        )
    }

    /// `me` no longer waits.
    func done(_ me: UInt) {
        lock.withLock { waiting[me] = nil }
    }
}
