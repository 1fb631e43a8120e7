import Ripple

extension MainActorComputed {
    /// Calls `receive` on the main actor with the current value (unless `dropsFirst`), then
    /// after every change of it: ``Derived/sinkValue(dropsFirst:file:line:_:)`` for a
    /// main-actor store's derived values (`MainActorStore.derived(_:)` returns a
    /// `MainActorComputed`).
    ///
    /// ``Changes/version`` counts this subscriber's deliveries (0 for the first), and
    /// ``Changes/previous`` is the value it was handed last.
    ///
    /// ```swift
    /// let badge = store.derived(from: \.todos) { $0.count { !$0.isDone } }
    ///     .sinkValue { changes in print("\(changes.current) left") }
    /// ```
    ///
    /// - Parameters:
    ///   - dropsFirst: Skip the delivery of the current value.
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - receive: Called on the main actor with each change. What it reads is not tracked.
    /// - Returns: A subscription that stops the delivery when cancelled or released. It keeps
    ///   this value alive.
    /// - Complexity: One reaction; a delivery makes one snapshot of the value.
    public func sinkValue(
        dropsFirst: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @MainActor (Changes<Value>) -> Void
    ) -> Subscription {
        let deliveries = _MainActorDeliveries<Value>()
        return observeOnMainActor(file: file, line: line) { [self] in
            let current = value
            let old = deliveries.previous
            let snapshot = _Snapshot(
                state: current, version: deliveries.count,
                transaction: Transaction(name: "derived", file: file, line: line))
            deliveries.previous = snapshot
            if old == nil, dropsFirst { return }
            deliveries.count += 1
            let changes = Changes(_previous: old, current: snapshot)
            withoutOwner { untracked { receive(changes) } }
        }
    }
}

/// What a main-actor `sinkValue` subscriber was handed last, and how many deliveries it had:
/// read and written only by its reaction, on the main actor.
@MainActor
final class _MainActorDeliveries<Value> {
    var previous: _Snapshot<Value>?
    var count: UInt64 = 0
}
