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
        let deliveries = _SinkValueDeliveries<Value>()
        return observeOnMainActor(file: file, line: line) { [self] in
            guard let changes = deliveries.changes(to: value, dropsFirst: dropsFirst, file: file, line: line) else {
                return
            }
            withoutOwner { untracked { receive(changes) } }
        }
    }
}
