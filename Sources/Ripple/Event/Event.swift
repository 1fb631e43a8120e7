import _RippleThread

/// A stream of values pushed to subscribers: nothing is stored or replayed.
///
/// ``send(_:)`` reaches every subscriber synchronously, in subscription order. A value sent
/// from inside a subscriber (or a reaction) is queued and delivered after the current
/// delivery, so every subscriber sees every value in the order it was sent. A subscriber
/// that subscribes during a delivery receives the values sent after it; one cancelled during
/// a delivery (by an earlier subscriber) is not called again, not even with that value.
///
/// Subscribing and cancelling a subscription cost amortized O(1), whatever the number of
/// subscribers and the order in which they cancel: each subscription holds its place in the
/// event's list (cancelling 40 000 subscriptions is linear, not quadratic).
///
/// ```swift
/// let tapped = Event<Int>()
/// let subscription = tapped.subscribe { print("tapped", $0) }
/// tapped.send(1)   // prints "tapped 1"
/// ```
public final class Event<Value>: @unchecked Sendable {
    // @unchecked: every field is guarded by the graph's lock.

    /// The subscribers in subscription order, each at the slot it remembers (`_EventHandler.slot`);
    /// `nil` where one was removed (a tombstone), so that the others keep their slots.
    private var handlers: ContiguousArray<_EventHandler<Value>?> = []
    /// The first slot that is not a tombstone (the tombstones before it count in `holes`).
    private var head = 0
    /// Tombstones in `handlers`.
    private var holes = 0
    #if RIPPLE_INVARIANTS
    /// Debug builds: the slots that cancellations looked at since the event was created, so
    /// that tests can check that cancelling stays amortized O(1) without timing it.
    package private(set) var slotsVisited = 0
    #endif

    /// Tombstones kept before a compaction (and at least as many as live subscribers).
    static var tombstonesBeforeCompaction: Int { 16 }

    /// Creates an event with no subscribers.
    public init() {}

    /// Calls `handler` with every value sent from now on, until the subscription ends.
    ///
    /// `handler` does not own what it creates: a reaction started inside it runs as long as
    /// its own subscription, even if the value was sent inside a reaction or a
    /// ``ReactionScope``'s `run { }`.
    ///
    /// Subscribed inside a reaction's body or a ``ReactionScope``'s `run { }`, the subscription
    /// belongs to that owner, as a reaction created there does: the handler is removed before
    /// the reaction's next run, or when the scope is cancelled. Subscribe inside
    /// ``withoutOwner(_:)`` to keep it beyond.
    ///
    /// - Returns: A ``Subscription`` that removes the handler when cancelled or released.
    /// - Complexity: Amortized O(1), and so is cancelling the subscription, whatever the
    ///   number of subscribers and the order of the cancellations.
    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription where Value: Sendable {
        subscribe(handler, onEnd: nil)
    }

    /// ``subscribe(_:)``, calling `onEnd` too when the subscription ends.
    func subscribe(
        _ handler: @escaping @Sendable (Value) -> Void, onEnd: (@Sendable () -> Void)?
    ) -> Subscription where Value: Sendable {
        let entry = _EventHandler(handler: handler)
        let subscription =
            if let onEnd {
                Subscription { [weak self] in
                    self?.remove(entry)
                    onEnd()
                }
            } else {
                Subscription { [weak self] in self?.remove(entry) }
            }
        // An owner already cancelled: the handler is never added.
        guard _adoptByCurrentOwner(subscription) else { return subscription }
        _graph.withLock {
            entry.slot = handlers.count
            handlers.append(entry)
        }
        return subscription
    }

    /// The number of current subscribers.
    ///
    /// - Complexity: O(1).
    public var subscriberCount: Int {
        _graph.withLock { handlers.count - holes }
    }

    /// Delivers `value` to every current subscriber, in subscription order.
    ///
    /// - Complexity: O(*n*) in the number of subscribers.
    public func send(_ value: Value) {
        let context = _ThreadContext.current
        if context.writes.route == .queue {
            _graph.queueWrite(context) { [self] in self.deliver(value, context) }
            return
        }
        deliver(value, context)
    }

    private func deliver(_ value: Value, _ context: _ThreadContext) {
        let (snapshot, first) = _graph.withLock { (handlers, head) }
        _graph.delivering(context) {
            withoutOwner {
                // A subscriber an earlier one cancelled is skipped (see `_EventHandler`).
                for slot in first..<snapshot.count {
                    if let entry = snapshot[slot], entry.isActive { entry.handler(value) }
                }
            }
        }
    }

    /// Removes `entry` (its subscription ended) from its slot, leaving a tombstone: O(1),
    /// plus, amortized, the trimming of tombstones at the ends and a compaction once they
    /// outnumber the subscribers.
    private func remove(_ entry: _EventHandler<Value>) {
        let removed = _graph.withLock { held -> _EventHandler<Value>? in
            let slot = entry.slot
            guard slot >= head, slot < handlers.count, handlers[slot] === entry else { return nil }
            visit()
            entry.deactivate()
            handlers[slot] = nil
            holes += 1
            if holes == handlers.count {
                handlers.removeAll()
                head = 0
                holes = 0
            } else if slot == handlers.count - 1 {
                while handlers[handlers.count - 1] == nil {
                    visit()
                    handlers.removeLast()
                    holes -= 1
                }
            } else if slot == head {
                while handlers[head] == nil {
                    visit()
                    head += 1
                }
            }
            if holes > Self.tombstonesBeforeCompaction, holes > handlers.count - holes { compact(held) }
            return entry
        }
        _ = removed  // released here, with the lock released: its handler may free user objects
    }

    /// Drops the tombstones, keeping the subscribers' order, and tells each moved one its new
    /// slot.
    private func compact(_ held: borrowing _HeldLock) {
        var kept = 0
        for slot in head..<handlers.count {
            visit()
            guard let entry = handlers[slot] else { continue }
            if slot != kept {
                handlers[kept] = entry
                entry.slot = kept
            }
            kept += 1
        }
        handlers.removeLast(handlers.count - kept)
        head = 0
        holes = 0
    }

    @inline(__always)
    private func visit() {
        #if RIPPLE_INVARIANTS
        slotsVisited += 1
        #endif
    }
}

extension Event where Value == Void {
    /// Delivers an event that carries no value.
    public func send() {
        send(())
    }
}

/// A subscriber of an ``Event``: its handler, and whether its subscription is still active.
/// A delivery calls the subscribers the event had when it started (taken under the lock,
/// called with the lock released); one cancelled meanwhile, by an earlier subscriber of the
/// same delivery or by another thread, is skipped from then on (a call another thread's
/// delivery had already begun, checked before the cancellation, goes on).
///
/// The subscription holds its subscriber, which knows its slot in the event's list: a
/// cancellation finds it there at once, without a search.
final class _EventHandler<Value>: @unchecked Sendable {
    // @unchecked: `slot` is guarded by the graph's lock.
    let handler: @Sendable (Value) -> Void
    /// Where it is in its event's `handlers` (lock held to touch, in this file only); moved by a
    /// compaction.
    fileprivate var slot = 0
    /// Set once, when the subscription ends (under the lock), and read without the lock by a
    /// delivery.
    private let ended = _OnceFlag()

    init(handler: @escaping @Sendable (Value) -> Void) {
        self.handler = handler
    }

    /// Whether the subscription is still active (an acquire load).
    var isActive: Bool { !ended.isSet }

    /// Marks the subscription ended (a release; once: later calls do nothing).
    func deactivate() {
        ended.set()
    }
}
