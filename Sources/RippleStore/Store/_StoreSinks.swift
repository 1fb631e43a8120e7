import Ripple
import _RippleThread

/// A store's plain subscriber (`sinkState`, `sink`): handed the snapshot it saw last (`nil` on
/// its first delivery) and the published one.
///
/// Its deliveries never overlap: the first ones run on the subscribing thread before it joins
/// the delivered sinks (``_StoreSinks``), the later ones in the runs of the store's one
/// dispatching reaction, which the core never runs twice at once.
final class _Sink: @unchecked Sendable {
    let deliver: @Sendable (_AnySnapshot?, _AnySnapshot) -> Void
    let label: String
    /// The snapshot delivered last: touched by the subscribing thread until the sink joins the
    /// delivered sinks, then by the dispatcher's runs only.
    var last: _AnySnapshot?
    /// The snapshots dispatcher runs found while the sink was still starting, in order (guarded
    /// by the list's lock): the subscribing thread delivers each, as the runs would have.
    var pending: [_AnySnapshot] = []
    /// Set once, when the sink is removed: read without a lock by a run that copied the list
    /// before (a sink cancelled by another sink of the same commit is not called).
    private let cancelledWord = UnsafeMutablePointer<UInt>.allocate(capacity: 1)

    init(label: String, deliver: @escaping @Sendable (_AnySnapshot?, _AnySnapshot) -> Void) {
        self.label = label
        self.deliver = deliver
        cancelledWord.initialize(to: 0)
    }

    deinit { cancelledWord.deallocate() }

    var isCancelled: Bool { _ripple_once_word_load(cancelledWord) != 0 }

    func markCancelled() { _ = _ripple_once_word_publish(cancelledWord, 1) }
}

/// The plain subscribers of a store, delivered by one reaction on the store's node: a commit
/// costs one reaction run and one closure call per subscriber, as in a Verge-style store,
/// where a reaction per subscriber cost 1 480 instructions each.
///
/// A subscriber first *starts*: it is listed as starting, then delivered the published
/// snapshot on its own thread; a dispatcher run meanwhile appends its snapshot to the sink's
/// `pending` instead of calling it, and the subscribing thread delivers those too, in order,
/// before the sink joins `active`. From then on only the dispatcher's runs call it, in
/// subscription order. So a subscriber is never called twice at once, and sees every
/// published commit from its first delivery on, once each, in order.
final class _StoreSinks: @unchecked Sendable {
    private let lock = _Lock()
    // Guarded by `lock`:
    /// Delivered by the dispatcher's runs, in subscription order (copied on write: a run reads
    /// it once and iterates its copy unlocked).
    private var active: [_Sink] = []
    private var starting: [_Sink] = []
    /// The dispatching reaction (made for the first subscriber, ended with the store).
    private var dispatcher: Subscription?
    private var isEnded = false

    var hasDispatcher: Bool { lock.withLock { dispatcher != nil } }

    /// Keeps `made` as the dispatcher, unless one was kept already or the sinks were ended;
    /// returns the subscription to cancel (lock not held).
    func keepDispatcher(_ made: Subscription) -> Subscription? {
        lock.withLock {
            if dispatcher != nil || isEnded { return made }
            dispatcher = made
            return nil
        }
    }

    /// A dispatcher run for `snapshot`: marks the starting sinks and returns the sinks to call.
    func sinksToDeliver(_ snapshot: _AnySnapshot) -> [_Sink] {
        lock.withLock {
            for sink in starting { sink.pending.append(snapshot) }
            return active
        }
    }

    func start(_ sink: _Sink) {
        lock.withLock { starting.append(sink) }
    }

    /// The next snapshot the starting `sink` must be delivered, or `nil` once it has joined the
    /// delivered sinks (it saw every published snapshot up to then).
    func nextOrJoin(_ sink: _Sink) -> _AnySnapshot? {
        lock.withLock {
            while !sink.pending.isEmpty {
                let next = sink.pending.removeFirst()
                if next.version > sink.last?.version ?? 0 { return next }
            }
            if let index = starting.firstIndex(where: { $0 === sink }) {
                starting.remove(at: index)
                if !sink.isCancelled { active.append(sink) }
            }
            return nil
        }
    }

    /// Removes `sink`: no run calls it after this returns, except one that is calling it now on
    /// another thread.
    ///
    /// - Complexity: O(*n*) in the number of subscribers.
    func remove(_ sink: _Sink) {
        sink.markCancelled()
        let removed = lock.withLock { () -> _Sink? in
            if let index = active.firstIndex(where: { $0 === sink }) { return active.remove(at: index) }
            if let index = starting.firstIndex(where: { $0 === sink }) { return starting.remove(at: index) }
            return nil
        }
        _ = removed  // released with the lock released
    }

    /// The store was released: ends the dispatcher (its subscribers end through the store).
    func end() {
        let ended = lock.withLock { () -> Subscription? in
            isEnded = true
            defer { dispatcher = nil }
            return dispatcher
        }
        ended?.cancel()
    }
}
