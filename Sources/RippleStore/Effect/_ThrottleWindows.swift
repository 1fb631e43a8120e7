/// The throttle windows of a reducer engine, keyed by throttle id: a pure state machine (no
/// lock, no clock; the timers' tasks it only keeps and hands back). Each transition returns what
/// to do; the engine does it: the any-thread engine (`_ReducerEngine`) under its lock, the
/// main-actor one (`_MainActorReducerEngine`) on the main actor, both starting the effects and
/// the timers, and cancelling the obsolete timers, after.
struct _ThrottleWindows<Action> {
    /// One id's window.
    struct Window {
        var windowEnd: Duration
        /// The effect held until the window closes, with the cancellation ids it arrived with:
        /// it starts under those, and a cancel of any of them drops it.
        var held: (effect: Effect<Action>, ids: [_TaskKey])?
        /// The number of the window's current timer: a timer that fires after its window was
        /// replaced, or after the effect it was started for was replaced, does nothing.
        var number: UInt64
        /// The task of the held effect's timer (`attach(_:number:for:)`), until it fires.
        var timer: Task<Void, Never>? = nil
    }

    /// What a throttled effect's arrival asks the engine to do.
    struct Decision {
        /// The effects to start now, in order, each with the cancellation ids to start it under.
        var due: [(Effect<Action>, [_TaskKey])] = []
        /// The timer to start, under the held effect's ids: sleep until `waitUntil`, then
        /// ``closeWindow(_:number:duration:now:)``.
        var timer: (waitUntil: Duration, number: UInt64)?
    }

    private var windows: [_TaskKey: Window] = [:]
    private var lastNumber: UInt64 = 0

    /// A throttled `effect` arrived at `now`: it starts when no window is open (and opens one);
    /// otherwise it is held until the window closes, or dropped (`latest` `nil`: leading only,
    /// or `false` with an effect already held).
    ///
    /// A window that has closed while its timer has not fired yet (a late timer) still holds an
    /// effect: that effect is due, so it comes first and opens the next window, in which
    /// `effect` may be held in turn.
    mutating func arrive(
        _ effect: Effect<Action>, id: _TaskKey, duration: Duration, latest: Bool?, ids: [_TaskKey], now: Duration
    ) -> Decision {
        var decision = Decision()
        if var window = windows[id], now >= window.windowEnd, let held = window.held {
            // Its timer is late: the held effect starts first, in a new window.
            decision.due.append((held.effect, held.ids + [id]))
            lastNumber += 1
            window = Window(windowEnd: now + duration, held: nil, number: lastNumber)
            windows[id] = window
        }
        if var window = windows[id], now < window.windowEnd {
            // Leading only: what arrives inside the window is dropped.
            guard let latest else { return decision }
            guard latest || window.held == nil else { return decision }
            // Held, with a timer of its own under its ids (a replaced effect's timer, if it
            // fires, finds another number and does nothing).
            window.held = (effect, ids)
            lastNumber += 1
            window.number = lastNumber
            windows[id] = window
            decision.timer = (window.windowEnd, window.number)
            return decision
        }
        lastNumber += 1
        windows[id] = Window(windowEnd: now + duration, held: nil, number: lastNumber)
        decision.due.append((effect, ids + [id]))
        return decision
    }

    /// The timer of window `number` of `id` fired at `now`: the held effect to start, with its
    /// ids, which opens the next window. `nil` when that window was already closed by a
    /// throttled effect that arrived after its end, before this timer fired (a later window may
    /// hold an effect that is not due yet).
    mutating func closeWindow(_ id: _TaskKey, number: UInt64, duration: Duration, now: Duration) -> (
        Effect<Action>, [_TaskKey]
    )? {
        guard var window = windows[id], window.number == number, let held = window.held else { return nil }
        window.held = nil
        // It runs the held effect now: no later timer may cancel it as obsolete.
        window.timer = nil
        window.windowEnd = now + duration
        windows[id] = window
        return (held.effect, held.ids + [id])
    }

    /// A cancel of `id`: forgets `id`'s window and its held effect, and drops every held effect
    /// that arrived under `id` (its window stays open).
    mutating func forget(_ id: _TaskKey) {
        windows[id] = nil
        for (key, window) in windows where window.held?.ids.contains(id) == true {
            windows[key]?.held = nil
            windows[key]?.timer = nil
        }
    }

    /// The engine started `task` as the timer of window `number` of `id` (the decision's
    /// `timer`). Returns the timer it makes obsolete, for the engine to cancel once its lock is
    /// released: the held effect's previous timer, which would find another number when it
    /// fires and do nothing, but sleep until the window's end (n replacements in a window left
    /// n sleeping tasks); or `task` itself, when the window moved on meanwhile (a newer effect
    /// arrived on another thread, or the window closed).
    mutating func attach(_ task: Task<Void, Never>, number: UInt64, for id: _TaskKey) -> Task<Void, Never>? {
        guard windows[id]?.number == number else { return task }
        let obsolete = windows[id]?.timer
        windows[id]?.timer = task
        return obsolete
    }

    /// Forgets every window (a store's reset or end).
    mutating func removeAll() {
        windows = [:]
    }
}
