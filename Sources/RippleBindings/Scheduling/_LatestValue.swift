import Ripple

/// Hands the newest of a stream of values to a scheduler: a value that arrives while an
/// older one waits for the scheduler replaces it, so the target never sees an older value
/// after a newer one, and never more jobs queued than one.
///
/// A pure state machine: each input returns what the caller must do after unlocking.
struct _LatestValueState<Value> {
    private var pending: Value?
    private var isScheduled = false

    enum Action { case none, schedule }

    /// A new value: schedule a drain unless one is already on its way.
    mutating func offer(_ value: Value) -> Action {
        pending = value
        if isScheduled { return .none }
        isScheduled = true
        return .schedule
    }

    /// The value to apply at once (the scheduler runs here): what still waits is older and is
    /// dropped; a drain on its way will find nothing.
    mutating func dropPending() {
        pending = nil
    }

    /// The drain takes the value waiting; `nil` ends the drain, and the next value schedules a
    /// new one. A drain applies values one after the other, so applies never overlap, even
    /// on a scheduler that runs jobs concurrently.
    mutating func takeForDrain() -> Value? {
        guard let value = pending else {
            isScheduled = false
            return nil
        }
        pending = nil
        return value
    }
}

/// ``_LatestValueState`` behind a lock, with a scheduler and an `apply` function.
final class _LatestValue<Value: Sendable>: @unchecked Sendable {
    private let lock = _Lock()
    private var state = _LatestValueState<Value>()
    /// Whether a drain is applying a value: a value sent "at once" meanwhile (written by the
    /// target's setter, on the drain's thread) is applied by the drain after it, not inside it.
    private var isDrainApplying = false
    private let scheduler: BindingScheduler
    private let apply: @Sendable (Value) -> Void

    init(scheduler: BindingScheduler, apply: @escaping @Sendable (Value) -> Void) {
        self.scheduler = scheduler
        self.apply = apply
    }

    /// Applies `value` at once when the scheduler runs here, otherwise hands it over.
    func send(_ value: Value) {
        if scheduler.runsAtOnce() {
            // Whatever still waits is older: drop it, then apply this one; unless a drain is
            // applying (this is a write its setter made): the drain applies it next.
            let atOnce = lock.withLock { () -> Bool in
                if isDrainApplying {
                    _ = state.offer(value)
                    return false
                }
                state.dropPending()
                return true
            }
            if atOnce { apply(value) }
            return
        }
        let action = lock.withLock { state.offer(value) }
        if case .schedule = action {
            scheduler.enqueue { [self] in
                while let latest = lock.withLock({ () -> Value? in
                    let next = state.takeForDrain()
                    isDrainApplying = next != nil
                    return next
                }) {
                    apply(latest)
                }
            }
        }
    }

    /// Drops the value waiting for the scheduler, if any: the target already shows something
    /// newer (a user's edit the model now holds).
    func dropPending() {
        lock.withLock { state.dropPending() }
    }
}
