import Observation

/// A value derived on the main actor from other reactive values, cached and kept up to date.
///
/// It is a ``Computed`` for main-actor code: its derivation is isolated to the main actor, so
/// it may read main-actor state (the properties of a `@MainActor` view model, including
/// `@Observed` ones) and need not be `Sendable`, and its value is read on the main actor.
///
/// ```swift
/// @MainActor final class TodoList {
///     let items = Stored<[Item]>([])
///     lazy var remaining = MainActorComputed(owner: self) { list in
///         list.items.value.count { !$0.isDone }
///     }
/// }
/// ```
///
/// Everything else is as for ``Computed``: dependencies are whatever the derivation reads,
/// recorded anew on every evaluation; the value is lazy, cached, cut off by equality (for
/// `Equatable` values, or with the equality you pass) and glitch-free. Read it inside another
/// `MainActorComputed` or an ``observeOnMainActor(isolation:file:line:_:)`` reaction and the
/// reader depends on it; read it in a SwiftUI body (or `withObservationTracking`) and the view
/// is invalidated when it changes.
///
/// **The main actor only.** The derivation runs when the value is read, on the reading
/// thread, and only main-actor code can read it, so it runs on the main actor. A `Computed` or
/// `observe { }`, which may run on any thread, cannot read it (the compiler refuses); and
/// should one reach it anyway on another thread (through `MainActor.assumeIsolated`), the
/// program stops with a message naming it rather than run the derivation there. Nor does a
/// deep first read move it: derivations nested hundreds deep continue on helper threads, but
/// main-actor ones stay on the main thread.
///
/// It may read any `Stored` and `Computed`, which may be written on any thread: a write made
/// on another thread marks it stale, and the next read on the main actor brings it up to date.
/// To the Observation framework, such a change is reported once the main actor has
/// re-evaluated it (at once for a write made on the main thread).
///
/// Inside a class, derive from `self` with `MainActorComputed(owner: self) { owner in … }`,
/// which holds the owner weakly: a derivation that captures `self` keeps it alive for as long
/// as the value lives, and a class that stores its own derived values then never goes away.
///
/// The derivation runs while the main thread holds the graph, so it must be a pure function
/// of what it reads: it must not write, block on another thread, or await. Side effects
/// belong in reactions.
///
/// - Complexity: As for ``Computed``: a read of an up-to-date value is O(1); otherwise only
///   the nodes whose sources really changed are re-evaluated.
@MainActor
public final class MainActorComputed<Value>: Observable {
    /// Owns the node. Its own `value` is never read: the Observation watcher that reading it
    /// arms would bring the value up to date on the writing thread.
    var computed: Computed<Value> { ownedComputed.value }
    /// `computed`, set by the nonisolated `init(node:)`.
    private nonisolated let ownedComputed: _MainActorOwned<Computed<Value>>
    /// Where the value was created, for diagnostics.
    private nonisolated let origin: _Origin
    /// Reports changes to Observation, once a read that no Ripple reader tracked, and that an
    /// Observation scope recorded, armed it.
    private var observation: _MainActorObservation?

    /// Takes ownership of `node`, whose derivation is checked to run on the main thread.
    ///
    /// Nonisolated, as are the `owner:` initializers: creating the value touches no main-actor
    /// state (its derivation runs on the first read, on the main actor), and the initial value
    /// of a `lazy var` in a `@RippleModel` class is type-checked as nonisolated by Swift 6.3,
    /// even in a main-actor class.
    @usableFromInline
    nonisolated init(node: _ComputedNode<Value>) {
        node.derivesOnMainActor = true
        ownedComputed = _MainActorOwned(Computed(node: node))
        origin = node.origin
    }

    /// Creates a computed value with an explicit equality, or none (`nil`: every
    /// re-evaluation counts as a change).
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - isEqual: The cut-off equality, or `nil`. Like the derivation, it runs while the main
    ///     thread holds the graph, so it must only compare.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation, run on the main actor. Reads inside it are tracked.
    public convenience init(
        name: String? = nil,
        equals isEqual: (@MainActor (Value, Value) -> Bool)?,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @MainActor () -> Value
    ) {
        let origin = _Origin(name: name, fileID: file, line: line)
        self.init(
            node: _ComputedNode(
                origin: origin,
                isEqual: _Derivation.onMainActor(isEqual),
                derive: _Derivation.onMainActor(derive, origin: origin)
            ))
    }

    /// Creates a computed value of a type that is not `Equatable`: every re-evaluation counts
    /// as a change.
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation, run on the main actor. Reads inside it are tracked.
    public convenience init(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @MainActor () -> Value
    ) {
        self.init(name: name, equals: nil, file: file, line: line, derive)
    }

    /// The current value, brought up to date on the main actor if anything it depends on
    /// changed.
    @inlinable
    public var value: Value {
        // Inlinable, as `Computed.value` is: compiled for `Value` in the client, the read copies
        // the cached value directly, where RippleStore's and Ripple's generic code looked up the
        // metadata of `Value?` on every read (about 330 instructions).
        let node = _node
        let held = node._lockAndRefresh()
        if node._isAnyThreadStaging {
            return Computed<Value>._readStaged(node, held) { _untrackedRead(node, $0) }
        }
        let current = node.current
        if node._trackRead(held) {
            node._endGeneralRead(held)
            return current
        }
        _untrackedRead(node, held)
        return current
    }

    /// The node, for the inlined ``value``.
    @usableFromInline
    var _node: _ComputedNode<Value> { computed.node }

    /// A read that no derivation or reaction tracked, under `held`, which it releases: if an
    /// Observation scope records it, arms the Observation watcher and registers the access (see
    /// `_Graph.finishUntrackedRead`); read anywhere else, nothing is armed. The subject is kept
    /// alive by `observation`, which this value keeps.
    @usableFromInline
    func _untrackedRead(_ node: _ComputedNode<Value>, _ held: consuming _HeldLock) {
        _graph.finishUntrackedRead(held, armed: observation.map { .init($0.subject) }) { held in
            .init((observation ?? armObservation(node, held)).subject)
        }
    }

    /// Called under the lock by the first read an Observation scope recorded: from now on every change is reported
    /// to Observation, as for a ``Computed`` (see `_WatcherNode`), but by a main-actor reaction,
    /// so the value is only ever re-evaluated on the main actor.
    private func armObservation(_ node: _ComputedNode<Value>, _ held: borrowing _HeldLock) -> _MainActorObservation {
        // Fresh before the watcher links to it (see `_Graph.armObservation`).
        _graph.refresh(node, held)
        let armed = _MainActorObservation(watching: node, held)
        observation = armed
        return armed
    }
}

extension MainActorComputed where Value: Equatable {
    /// Creates a computed value cut off by `==`: re-evaluating to an equal value notifies
    /// nobody.
    ///
    /// ```swift
    /// let total = MainActorComputed { cart.lines.reduce(0) { $0 + $1.price } }
    /// ```
    ///
    /// - Parameters:
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation, run on the main actor. Reads inside it are tracked.
    @inlinable
    public convenience init(
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @MainActor () -> Value
    ) {
        // Inlinable, as `Computed`'s: the node's evaluation is compiled for the concrete type,
        // where this module's generic code looked up the metadata of `Value?` three times per
        // evaluation.
        let origin = _Origin(name: name, fileID: file, line: line)
        self.init(
            node: Computed<Value>._equatableNode(
                name: name, file: file, line: line, _Derivation.onMainActor(derive, origin: origin)))
    }

    /// Creates a computed value cut off by `==`, named `describe()` the first time a trace or a
    /// diagnostic reads its name (see `Computed.init(describedBy:file:line:_:)`).
    ///
    /// - Parameters:
    ///   - describe: Makes the name when it is first read, on any thread (threads reading it
    ///     first at the same time may each make it; the first one kept wins). It may run under
    ///     the graph's lock, so it must not read reactive values.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation, run on the main actor. Reads inside it are tracked.
    @inlinable
    package convenience init(
        describedBy describe: @escaping @Sendable () -> String,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @MainActor () -> Value
    ) {
        let origin = _Origin(describedBy: describe, fileID: file, line: line)
        self.init(node: Computed<Value>._equatableNode(origin: origin, _Derivation.onMainActor(derive, origin: origin)))
    }
}

extension MainActorComputed: CustomStringConvertible {
    /// Where the computed value was created.
    public nonisolated var description: String {
        "MainActorComputed\(origin)"
    }
}

/// Tells Observation of a ``MainActorComputed``'s changes: a main-actor reaction that watches
/// the node from the first read an Observation scope recorded (it never disarms, like `_WatcherNode`), brings
/// it up to date on the main actor after each change of its sources, and tells Observation
/// when its version moved. Released with the `MainActorComputed`, which cancels it.
final class _MainActorObservation: Sendable {
    /// What Observation sees of the value.
    let subject = _ObservationSubject()
    /// Stops the reaction when the `MainActorComputed` goes.
    private let subscription: Subscription

    /// Creates the reaction (`node` just brought up to date and read): it is
    /// linked to `node` now, under the same lock, so no change after this read goes untold.
    init<Value>(watching node: _ComputedNode<Value>, _ held: borrowing _HeldLock) {
        let check = _VersionCheck(node: node, subject: subject, held)
        // Named after the value in traces; it records no reasons (its body never asks why), so
        // its runs do not describe a name still to describe (a store's slice) under the lock.
        let reaction = _mainActorReaction(origin: node.origin, recordsWhy: false) { check.run() }
        reaction.adoptFirstRun(readOf: node, held)
        subscription = Subscription { reaction.cancel() }
    }

    /// The body of the reaction: on the main actor, with the lock released.
    private final class _VersionCheck: @unchecked Sendable {
        /// Read only on the main actor, where the reaction runs (never concurrently).
        private let node: _Node
        private let subject: _ObservationSubject
        private var reportedVersion: Int

        init(node: _Node, subject: _ObservationSubject, _ held: borrowing _HeldLock) {
            self.node = node
            self.subject = subject
            reportedVersion = held[version: node]
        }

        func run() {
            let held = node._lockAndRefresh()
            let version = held[version: node]
            _ = node._trackRead(held)
            node._endGeneralRead(held)
            guard version != reportedVersion else { return }
            reportedVersion = version
            subject.notifyChange()
        }
    }
}
