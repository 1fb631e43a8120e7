/// A two-way binding to part of a store's state: reading tracks that part only, writing
/// commits (Verge's `BindingDerived`).
///
/// ```swift
/// let name = store.binding(\.profile.name)
/// TextField("Name", text: Binding(get: { name.value }, set: { name.value = $0 }))
/// name.value = "Ada"          // commit { $0.profile.name = "Ada" }
/// name.update { $0 += "!" }   // one atomic commit
/// ```
///
/// A binding is a `Readable` core value and an `ObservableValue`, so the models layer's
/// handlers work on it; ``valueBinding`` gives a `ValueBinding` for APIs that take one.
/// Project a binding to a member with dynamic member lookup: `profile.name`.
///
/// A binding does not keep its store alive. Once the store is released, reading it gives the
/// store's last value and writing it is dropped (as a ``ReducerStore``'s `binding(_:send:)`
/// drops its sends): derived values keep their last value and their subscribers do not run.
@dynamicMemberLookup
public final class StoreBinding<Value: Equatable & Sendable>: Readable, ObservableValue, @unchecked Sendable {
    private let source: any _WritableSource<Value>

    init(_ source: any _WritableSource<Value>) {
        self.source = source
    }

    /// The current value; setting it commits the new value to the store.
    ///
    /// A compound assignment (`count.value += 1`, `items.value.append(x)`) is one commit,
    /// atomic with respect to every other commit to the store: other threads' commits wait
    /// until the assignment ends. The assignment's own expression must not commit to the store.
    public var value: Value {
        get { source.read() }
        set { source.modify { $0 = newValue } }
        _modify {
            let open = source.open()
            var copy = open.value
            var isFinished = false
            defer { if !isFinished { source.abandon(open) } }
            yield &copy
            isFinished = true
            source.close(open, with: copy)
        }
    }

    /// Changes the value in place, in one commit: atomic with respect to every other commit
    /// to the store.
    ///
    /// - Parameter transform: Changes the value. It runs once, inside the commit.
    public func update(_ transform: (inout Value) -> Void) {
        source.modify(transform)
    }

    /// A binding to the member at `keyPath` of this binding's value.
    public subscript<Member: Equatable & Sendable>(dynamicMember keyPath: any WritableKeyPath<Value, Member> & Sendable)
        -> StoreBinding<Member>
    {
        StoreBinding<Member>(source.child(keyPath))
    }

    /// This binding as the models layer's `ValueBinding`. Its `update` commits once, like
    /// ``update(_:)``; a compound assignment through it (`valueBinding.value += 1`) reads,
    /// then commits, so from several threads use `update` (or this binding's own `+=`, which
    /// is one commit).
    public var valueBinding: ValueBinding<Value> {
        let source = source
        // Not `ValueBinding(get:set:)`: its `update` reads and writes in two steps, and only
        // retries when the getter reads a `Stored` directly, so concurrent updates were lost.
        return ValueBinding(get: { source.read() }, update: { transform in source.modify(transform) })
    }
}

/// Where a ``StoreBinding`` reads and writes.
protocol _WritableSource<Value>: Sendable {
    associatedtype Value: Equatable & Sendable
    func read() -> Value
    func modify(_ transform: (inout Value) -> Void)
    /// Opens a commit for a compound assignment: the value to change, and the commit, which
    /// `close(_:with:)` or `abandon(_:)` ends.
    func open() -> _OpenModify<Value>
    /// Ends a compound assignment's commit with the value it left.
    func close(_ open: _OpenModify<Value>, with value: Value)
    /// Ends a compound assignment's commit without a change (its expression threw).
    func abandon(_ open: _OpenModify<Value>)
    func child<Member: Equatable & Sendable>(_ keyPath: WritableKeyPath<Value, Member>) -> any _WritableSource<Member>
}

/// A compound assignment's open commit: the value it started from, and the commit. Ended by
/// its source, without closures (a binding's `+=` allocated two per write).
struct _OpenModify<Value> {
    let value: Value
    let commit: _OpenCommit
}

/// A writable key path the store keeps in `@Sendable` closures (see ``_KeyPath``).
struct _WritableKeyPath<Root, Value>: @unchecked Sendable {
    let keyPath: WritableKeyPath<Root, Value>
}

/// The value at a key path of a store's state.
struct _StoreKeyPathSource<State: Equatable & Sendable, Value: Equatable & Sendable>: _WritableSource {
    let core: _StoreCore<State>
    let path: _WritableKeyPath<State, Value>
    let file: StaticString
    let line: UInt

    /// The value as a read made now on this thread sees it (as `Store.currentState` does): a
    /// subscriber that commits through the binding reads its own commits back at once, so that
    /// `binding.value = binding.value + 1`, twice, adds two.
    func read() -> Value {
        if let ahead = core.untrackedAhead() { return ahead.state[keyPath: path.keyPath] }
        return core.slice(path.keyPath).value
    }

    /// The commits this binding makes: made once, with the binding, and copied into each
    /// commit (its name is described when read).
    private let transaction: Transaction

    init(core: _StoreCore<State>, path: _WritableKeyPath<State, Value>, file: StaticString, line: UInt) {
        self.core = core
        self.path = path
        self.file = file
        self.line = line
        transaction = Transaction("binding", describing: path.keyPath, file: file, line: line)
    }

    func modify(_ transform: (inout Value) -> Void) {
        core.commit(transaction) { state, _ in
            transform(&state[keyPath: path.keyPath])
        }
    }

    func open() -> _OpenModify<Value> {
        let open = core.openCommit(transaction)
        return _OpenModify(value: core.base(of: open).state[keyPath: path.keyPath], commit: open)
    }

    func close(_ open: _OpenModify<Value>, with value: Value) {
        var state = core.base(of: open.commit).state
        state[keyPath: path.keyPath] = value
        core.close(open.commit, with: state)
    }

    func abandon(_ open: _OpenModify<Value>) {
        core.abandon(open.commit)
    }

    func child<Member: Equatable & Sendable>(_ keyPath: WritableKeyPath<Value, Member>) -> any _WritableSource<Member> {
        _StoreKeyPathSource<State, Member>(
            core: core, path: _WritableKeyPath(keyPath: path.keyPath.appending(path: keyPath)), file: file, line: line)
    }
}
