import _RippleRef

/// The parts of a ``Stored`` that most values never use, kept apart so that a plain stored
/// value stays small: created by the first batch write, read in an Observation scope, ``Stored/writeCount``
/// read, compound assignment or before-change handler that needs them (lock held), and freed
/// with the value.
///
/// Every field is guarded by the graph's lock.
@usableFromInline
final class _StoredExtras<Value> {
    /// The batch whose staged value this node holds (others keep theirs apart).
    @exclusivity(unchecked) var stagedOwner: _Ref<_Staging>?
    /// The writes the staged value stands for.
    @exclusivity(unchecked) var stagedWrites = 0
    /// Reactions' reads of the staged value, in the batch's view (see `_StagedRead`).
    @exclusivity(unchecked) var stagedRead = _StagedRead()
    /// Publishes the value's write count to readers of ``Stored/writeCount``.
    @exclusivity(unchecked) var writeCounter: Stored<Int>?
    /// The thread (its context) inside a compound assignment to the value, which other writers
    /// wait for; `nil` when none.
    @exclusivity(unchecked) var exclusiveOwner: _Ref<_ThreadContext>?
    /// Nested compound assignments to the value by the thread that owns it.
    @exclusivity(unchecked) var exclusiveDepth = 0
    /// Observation interop: created by the first read no Ripple reader tracked and an
    /// Observation scope recorded; from then on every change is told to Observation (see
    /// `Stored.armObservation`). Retained by hand so that later top-level reads reach it without
    /// reference counting.
    @exclusivity(unchecked) var observationRef: _Ref<_ObservationSubject>?
    /// Before-change handlers (``Stored/willChange(_:)``), in the order they were added.
    @exclusivity(unchecked) var willChangeHandlers: [_WillChangeHandler<Value>] = []
    /// The thread (its context) calling the before-change handlers, which must not write the
    /// value; `nil` when none.
    @exclusivity(unchecked) var willChangeCaller: _Ref<_ThreadContext>?
    /// The value staged by the batch that holds this node's slot (see `_Staging`). Last: the
    /// fields before it are at constant offsets in code not specialized for `Value`.
    @usableFromInline @exclusivity(unchecked) var _stagedValue: Value?

    init() {}

    deinit {
        observationRef?.release()
    }
}
