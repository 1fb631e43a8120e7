/// A value derived from a store's state, memoized: it is computed again only when its input
/// changed, and its readers run again only when its output changed (Verge's `Derived`).
///
/// A derived value is a core node (it wraps a `Computed`): read ``value`` in a
/// `Computed`, an `observe { }` reaction, `withObservationTracking` or SwiftUI,
/// or use any handler of the models layer on it (it is an `ObservableValue`).
///
/// ```swift
/// let count = store.derived(\.count)
/// let doneCount = store.derived(from: \.todos) { todos in todos.filter(\.isDone).count }
/// let subscription = doneCount.sinkValue { changes in badge.text = "\(changes.current)" }
/// ```
///
/// It does not keep its store alive, and lives while anyone holds or observes it: a
/// ``sinkValue(dropsFirst:file:line:_:)`` subscription, a value derived from it
/// (`derived(_:)`, ``combined(_:)``) or a reader of its ``value`` keeps it (and what it
/// derives from) alive. Derived
/// values of the same commit are consistent with each other: ``combined(_:)`` pairs them
/// without ever showing a mix of old and new.
///
/// - Complexity: Reading an up-to-date value is O(1).
public final class Derived<Value: Sendable>: Readable, ObservableValue, @unchecked Sendable {
    @usableFromInline let computed: Computed<Value>
    /// The stores this value is derived from, held weakly (for
    /// ``Ripple/Subscription/storeWhileSourceActive()``): shared with its store and the values
    /// derived from it.
    @usableFromInline let sources: _SourceStores

    @usableFromInline
    init(_ computed: Computed<Value>, sources: _SourceStores) {
        self.computed = computed
        self.sources = sources
    }

    /// The current value, brought up to date if its input changed. Reading it inside a
    /// reader tracks it.
    public var value: Value {
        computed.value
    }

    /// Calls `receive` with the current value (unless `dropsFirst`), then after every commit
    /// that changed it, on the committing thread, in commit order.
    ///
    /// ``Changes/version`` counts this subscriber's deliveries (0 for the first).
    ///
    /// ```swift
    /// let subscription = store.derived(\.count).sinkValue { changes in
    ///     label.text = "\(changes.current)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - dropsFirst: Skip the delivery of the current value.
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - receive: Called with each change. What it reads is not tracked.
    /// - Returns: A subscription that stops the delivery when cancelled or released. It keeps
    ///   this derived value alive, not the store. To let the store keep it instead, until the
    ///   store is released, call ``Ripple/Subscription/storeWhileSourceActive()`` on it.
    @inlinable
    public func sinkValue(
        dropsFirst: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ receive: @escaping @Sendable (Changes<Value>) -> Void
    ) -> Subscription {
        // Inlinable: each delivery's `Changes` is made in code compiled for the concrete value
        // type, where this module's generic code looked up the metadata of `Changes<Value>`,
        // of its snapshots and of `Value?` on every delivery (a third of a delivery's cost).
        let deliveries = _SinkValueDeliveries<Value>()
        // The reaction holds this derived value (not only its node), so that the value and
        // what hangs on it live while the subscription does.
        return _sinkValue(file: file, line: line) { [self] in
            guard let changes = deliveries.changes(to: computed.value, dropsFirst: dropsFirst, file: file, line: line)
            else { return }
            withoutOwner { untracked { receive(changes) } }
        }
    }

    /// Runs `body` as a reaction whose context is this value's stores (for
    /// `storeWhileSourceActive()`).
    @usableFromInline
    func _sinkValue(file: StaticString, line: UInt, _ body: @escaping @Sendable () -> Void) -> Subscription {
        _observe(context: sources, file: file, line: line, body)
    }

    /// A value derived from this one's value at `keyPath`.
    ///
    /// - Complexity: O(1) to create.
    @inlinable
    public func derived<Member: Equatable & Sendable>(_ keyPath: any KeyPath<Value, Member> & Sendable) -> Derived<
        Member
    > {
        // Inlinable, as the next one: the node is made for the concrete types, where this
        // module's generic code looked up the metadata of `Member?` on every evaluation.
        Derived<Member>(Computed { [self] in computed.value[keyPath: keyPath] }, sources: sources)
    }

    /// A value derived from this one by `transform`, which runs only when this value changed;
    /// the result's readers run only when the result changed.
    ///
    /// - Complexity: O(1) to create.
    @inlinable
    public func derived<Output: Equatable & Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Derived<
        Output
    > {
        Derived<Output>(Computed { [self] in transform(computed.value) }, sources: sources)
    }
}

/// A derived value that pairs `values`, consistent in every delivery: after a commit it holds
/// the values of that commit only, and emits once (Verge's `combined` emits a half-updated
/// pair first).
///
/// ```swift
/// let summary = combined(store.derived(\.count), store.derived(\.name))
/// let subscription = summary.sinkValue { changes in
///     let (count, name) = changes.current
///     label.text = "\(name): \(count)"
/// }
/// ```
///
/// - Complexity: O(1) to create; one comparison per value when an input changed.
public func combined<each Value: Equatable & Sendable>(_ values: repeat Derived<each Value>) -> Derived<
    (repeat each Value)
> {
    // The combined node holds its input derived values (not only their nodes): they live
    // while it does.
    let inputs = (repeat each values)
    var sources: [_SourceStores] = []
    repeat sources.append((each values).sources)
    return Derived(
        Computed(equals: { (old: (repeat each Value), new: (repeat each Value)) -> Bool in
            var equal = true
            repeat (equal = equal && (each old) == (each new))
            return equal
        }) {
            (repeat (each inputs).computed.value)
        },
        sources: _SourceStores.union(sources))
}
