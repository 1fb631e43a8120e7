/// The timer of each throttle id's held effect (see `_ThrottleWindows`), kept by a reducer
/// engine so that a timer made obsolete is cancelled, not left sleeping until its window ends.
///
/// A held effect that another replaces (`latest: true`) keeps the timer started for it, which
/// would find another window number when it fires and do nothing: n replacements in a window
/// left n sleeping tasks. Guarded as the engine's throttle windows are (the any-thread engine's
/// lock; the main actor).
struct _ThrottleTimers {
    private var timers: [_TaskKey: (number: UInt64, task: Task<Void, Never>)] = [:]

    /// Records `task` as the timer of window `number` of `id`. Returns the timer it makes
    /// obsolete, for the caller to cancel once its lock is released: the one recorded before,
    /// or `task` itself when a timer of a newer window number was recorded first (two threads
    /// throttled under `id` at once).
    mutating func record(_ task: Task<Void, Never>, number: UInt64, for id: _TaskKey) -> Task<Void, Never>? {
        if let current = timers[id], current.number > number { return task }
        let replaced = timers[id]?.task
        timers[id] = (number, task)
        return replaced
    }

    /// The timer of window `number` of `id` fired and closed its window: it runs the held
    /// effect now, which no later timer may cancel as obsolete. Call it in the same step as
    /// `_ThrottleWindows.closeWindow`.
    mutating func fired(_ number: UInt64, for id: _TaskKey) {
        if timers[id]?.number == number { timers[id] = nil }
    }

    /// Forgets `id`'s timer (cancelled with the effects under `id`).
    mutating func forget(_ id: _TaskKey) {
        timers[id] = nil
    }

    /// Forgets every timer (a store's reset or end, which cancels them).
    mutating func removeAll() {
        timers = [:]
    }
}
