import Ripple
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a reducer-driven store is, without the store: the action queue and the effects it
/// runs. Effects hold it weakly, so they never keep a store alive.
///
/// **The queue.** `send` appends the action under a new *ticket*; the first thread that finds
/// no one reducing becomes the *drainer* and reduces queued actions, one at a time, in order.
/// What the drainer's own thread sends meanwhile (a subscriber during a commit's delivery, a
/// `create` body as its effect starts) is appended under the ticket being reduced and returns
/// at once: it is never reduced re-entrantly. A caller's drain ends once its ticket has no
/// entry left (`outstanding`), so a stream of effect actions queued after it never holds it;
/// a drain no caller waits for (an effect's, a task's) ends after ``drainBudget`` actions. A
/// drainer that leaves actions queued wakes the callers waiting (the first one takes over) and
/// schedules a task (a main-actor job on a main-actor store) to reduce the rest. A caller on
/// another thread waits until its ticket is done, so the state after `send` returns always
/// reflects its action. Actions from asynchronous effects do not wait for their reduction, but
/// wait (suspended) for room while ``effectQueueLimit`` actions are queued; synchronous effect
/// sends stop the program at ``queueBound``. On a main-actor store, effect actions are reduced
/// by a job on the main actor instead of on the effect's thread.
///
/// **Effects** run in tasks (or, for `create`, under a continuation) registered by a serial
/// number and by every cancellation id around them, so `cancel(id:)` and the store's end reach
/// them all. No user code runs while `lock` is held.
package final class _ReducerEngine<R: Reducer>: _Waitable, @unchecked Sendable
where R: Sendable, R.State: Sendable, R.Action: Sendable {
    typealias State = R.State
    typealias Action = R.Action

    struct Entry {
        let action: Action
        /// The number of the caller's `send` whose work it is (its action, what its effect sent
        /// at once, what its subscribers sent on its thread); 0 when no one waits for it.
        let ticket: UInt64
        let file: StaticString
        let line: UInt
    }

    struct Running {
        let ids: [_TaskKey]
        /// A task (not a `create` continuation, which runs only when its source calls it).
        let isTask: Bool
        /// Marked when the effect is cancelled, in the same hold of `lock` that forgets it.
        let token: _EffectToken
        let cancel: @Sendable () -> Void
    }

    let reducer: R
    let core: _StoreCore<State>
    let clock: _ElapsedClock
    let onMainActor: Bool
    let reportError: @Sendable (any Error) -> Void
    /// Set by a test store before anything runs: effect actions go to it instead of the queue.
    let intercept: (@Sendable (Action) -> Void)?

    let lock = _Lock()
    // Guarded by `lock`. The queue:
    private var queue: [Entry] = [] {
        // `queue.count`, kept: reading the count of an array of generic entries in this
        // unspecialized code looks up their metadata (about 1 000 of a `send`'s 7 000
        // instructions went to two such reads).
        didSet { queued = queue.count }
    }
    private var queued = 0
    private var head = 0
    private var drainer: UInt = 0
    /// The ticket of the entry the drainer is reducing: what a subscriber sends on the
    /// drainer's thread meanwhile is part of that caller's work.
    private var drainingTicket: UInt64 = 0
    private var issued: UInt64 = 0
    /// The entries queued (or being reduced) for each caller's ticket: a `send` returns once
    /// its ticket has none left.
    private var outstanding: [UInt64: Int] = [:]
    private var waiters = 0
    /// Counts the wake-ups of ``wakeToRecheck()``: a waiter that sees it move checks again.
    private var recheckEpoch = 0
    private var mainDrainScheduled = false
    private var backgroundDrainScheduled = false
    /// Effect tasks waiting for room in the queue (see ``sendFromEffectWaiting(_:from:)``).
    /// Unchecked exclusivity, as the store's `handed`: every send reads it, every access holds
    /// `lock`.
    @exclusivity(unchecked) private var parked: [CheckedContinuation<Bool, Never>] = []
    /// On a test store: actions effects sent while a thread reduced, given to `intercept`
    /// after the actions the reduction's effect sent at once, as a store's queue orders them.
    private var intercepted: [Action] = []
    var isEnded = false
    // The effects:
    var running: [UInt64: Running] = [:]
    var runningByID: [_TaskKey: Set<UInt64>] = [:]
    var throttles = _ThrottleWindows<Action>()
    var nextEffect: UInt64 = 0
    /// Set by a test store around its own `send`: the cancellation ids the effects of the
    /// actions reduced meanwhile start under (see ``markingEffects(_:_:)``). Empty otherwise.
    private var markIDs: [_TaskKey] = []

    init(
        reducer: R,
        core: _StoreCore<State>,
        clock: _ElapsedClock,
        onMainActor: Bool,
        reportError: @escaping @Sendable (any Error) -> Void,
        intercept: (@Sendable (Action) -> Void)?
    ) {
        self.reducer = reducer
        self.core = core
        self.clock = clock
        self.onMainActor = onMainActor
        self.reportError = reportError
        self.intercept = intercept
    }

    // MARK: Sending

    /// Queues `action` from a caller, and reduces the queue if no one is; returns when the
    /// action has been reduced, except on the drainer's own thread.
    func send(_ action: Action, file: StaticString, line: UInt) {
        let me = _Lock.currentThread
        lock.lock(as: me)
        if isEnded {
            lock.unlock()
            return
        }
        if drainer == 0, head >= queued, intercept == nil {
            // Nothing queued and no one reducing (the common case): reduce at once, without
            // the queue's bookkeeping (its generic entries cost run-time metadata lookups).
            issued += 1
            reduceFirst(action, ticket: issued, file: file, line: line, me)
            return
        }
        sendQueued(action, file: file, line: line, me)
    }

    /// ``send(_:file:line:)`` when the action must be queued (lock held; released on return).
    /// Apart from `send`, which would otherwise look up the entries' metadata on every call.
    @inline(never)
    private func sendQueued(_ action: Action, file: StaticString, line: UInt, _ me: UInt) {
        if drainer == me {
            // From a subscriber, during a delivery: part of the work of the send being reduced.
            append(Entry(action: action, ticket: drainingTicket, file: file, line: line))
            lock.unlock()
            return
        }
        issued += 1
        let ticket = issued
        append(Entry(action: action, ticket: ticket, file: file, line: line))
        if drainer == 0 {
            drainer = me
            lock.unlock()
            drain(me, until: ticket)
            return
        }
        lock.unlock()
        // A thread delivering a commit to this store (a subscriber of a direct `commit`) holds
        // the store's gate, which the drainer needs: waiting would deadlock, so it only queues.
        if core.isGateOwner(me) { return }
        lock.lock()
        // The drainer usually reduces it within microseconds: check a few times, yielding the
        // processor, before sleeping on the condition (a sleep and a wake-up cost more).
        var spins = 0
        while outstanding[ticket] != nil, spins < 64 {
            lock.unlock()
            sched_yield()
            spins += 1
            lock.lock()
        }
        var registered = false
        defer { if registered { _WaitRegistry.shared.done(me) } }
        while outstanding[ticket] != nil {
            if drainer == 0, !isEnded {
                // The drainer left, its own work done: this caller reduces what comes before
                // its action, then its action.
                drainer = me
                lock.unlock()
                drain(me, until: ticket)
                return
            }
            // The drainer may wait, through other stores, for this thread (two reducer stores
            // whose subscribers send to each other): then this caller does not wait. Its action
            // stays queued, and the drainer reduces it.
            let epoch = recheckEpoch
            lock.unlock()
            let verdict = _WaitRegistry.shared.check(me, waitingFor: self)
            registered = true
            lock.lock()
            if case .handOver = verdict { break }
            if recheckEpoch == epoch, outstanding[ticket] != nil, drainer != 0 {
                waiters += 1
                lock.wait()
                waiters -= 1
            }
        }
        lock.unlock()
    }

    /// Queues `action` from an effect; reduces the queue at once if no one is (on a
    /// main-actor store, schedules that on the main actor). `effect` is the running effect
    /// that sends (`nil` for what `bind` sent at once): once it is cancelled, the action is
    /// dropped, checked with `lock` held, so none is queued after `cancel` has returned.
    func sendFromEffect(_ action: Action, from effect: _EffectToken?) {
        if let intercept {
            lock.lock()
            if effect?.isCancelled == true {
                lock.unlock()
                return
            }
            if drainer != 0 {
                intercepted.append(action)
                lock.unlock()
                return
            }
            lock.unlock()
            intercept(action)
            return
        }
        let me = _Lock.currentThread
        lock.lock()
        if isEnded || effect?.isCancelled == true {
            lock.unlock()
            return
        }
        if queue.count - head >= Self.queueBound {
            let count = queue.count - head
            lock.unlock()
            // `fatalError`, not `preconditionFailure`: optimized builds drop a precondition's message.
            fatalError(
                "RippleStore: \(core.name)'s action queue holds \(count) actions: an effect sends actions faster than the store reduces them (an `Effect.create` continuation, or a subscriber sending from every delivery). Send fewer actions, or send them from `Effect.run`, whose `send` waits for room in the queue."
            )
        }
        // Sent on the drainer's thread (by a `create` body as its effect starts, during a
        // reduction): part of the work of the send being reduced, which waits for it.
        append(Entry(action: action, ticket: drainer == me ? drainingTicket : 0, file: #fileID, line: #line))
        if drainer != 0 {
            lock.unlock()
            return
        }
        if onMainActor {
            let schedule = !mainDrainScheduled
            mainDrainScheduled = true
            lock.unlock()
            if schedule {
                Task { @MainActor [weak self] in self?.drainOnMainActor() }
            }
            return
        }
        drainer = me
        lock.unlock()
        drain(me, until: 0)
    }

    /// ``sendFromEffect(_:from:)`` for an effect's asynchronous `send`: while the queue holds
    /// ``effectQueueLimit`` actions or more and someone reduces them, waits (suspended) until it
    /// holds half as many, so that a stream faster than the store's reducer cannot grow the
    /// queue without bound.
    func sendFromEffectWaiting(_ action: Action, from effect: _EffectToken?) async {
        if intercept == nil {
            while true {
                let hasRoom = await withCheckedContinuation { (resume: CheckedContinuation<Bool, Never>) in
                    lock.lock()
                    if isEnded || effect?.isCancelled == true || queue.count - head < Self.effectQueueLimit
                        || (drainer == 0 && !mainDrainScheduled)
                    {
                        lock.unlock()
                        resume.resume(returning: true)
                        return
                    }
                    // Resumed with `false` (check again) when the queue has room or the drainer leaves.
                    parked.append(resume)
                    lock.unlock()
                }
                if hasRoom { break }
            }
        }
        sendFromEffect(action, from: effect)
    }

    @MainActor
    private func drainOnMainActor() {
        let me = _Lock.currentThread
        lock.lock()
        mainDrainScheduled = false
        guard drainer == 0 else {
            lock.unlock()
            return
        }
        drainer = me
        lock.unlock()
        drain(me, until: 0)
    }

    /// A drain scheduled by a drainer that left with actions queued (and no caller waiting to
    /// take over): reduces them in a task.
    private func drainInBackground() {
        let me = _Lock.currentThread
        lock.lock()
        backgroundDrainScheduled = false
        guard drainer == 0, head < queue.count, !isEnded else {
            lock.unlock()
            return
        }
        drainer = me
        lock.unlock()
        drain(me, until: 0)
    }

    /// Appends an entry (lock held).
    private func append(_ entry: Entry) {
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        queue.append(entry)
        if entry.ticket != 0 { outstanding[entry.ticket, default: 0] += 1 }
    }

    /// How many queued actions a drain that no caller waits for reduces before it hands the
    /// rest to a new task (or main-actor job): a stream of effect actions holds no thread for long.
    static var drainBudget: Int { 1_024 }
    /// The queued actions from which an effect's asynchronous `send` waits for room.
    package static var effectQueueLimit: Int { 1_024 }
    /// The queued actions at which a synchronous effect send (`Effect.create`'s continuation)
    /// stops the program with a message, instead of growing the queue without bound.
    package static var queueBound: Int { 100_000 }

    /// Reduces queued actions, one at a time, in order; `me` is the drainer. With a `ticket`
    /// (a caller's `send`), returns once that caller's work is reduced; without, once the queue
    /// is empty or ``drainBudget`` actions were reduced. What is left is handed over: to a
    /// caller waiting for its own action, or to a new task (a main-actor job).
    private func drain(_ me: UInt, until ticket: UInt64) {
        var budget = Self.drainBudget
        while true {
            lock.lock()
            if let intercept, !intercepted.isEmpty {
                let actions = intercepted
                intercepted = []
                lock.unlock()
                for action in actions { intercept(action) }
                continue
            }
            guard head < queue.count, !isEnded else {
                queue.removeAll(keepingCapacity: true)
                head = 0
                outstanding = [:]
                leaveDrain(scheduling: false)
                return
            }
            if ticket != 0 ? outstanding[ticket] == nil : budget == 0 {
                // This drainer's work is done; the rest is someone else's.
                leaveDrain(scheduling: true)
                return
            }
            budget -= 1
            let entry = queue[head]
            head += 1
            drainingTicket = entry.ticket
            let marks = markIDs
            lock.unlock()

            var followUps = reduce(entry, under: marks)

            if let intercept, !followUps.isEmpty {
                // A test store asserts these with `receive`.
                for action in followUps { intercept(action) }
                followUps = []
            }
            lock.lock()
            if !followUps.isEmpty {
                // Reduced next, before anything queued, as part of the same send.
                let entries = followUps.map {
                    Entry(action: $0, ticket: entry.ticket, file: entry.file, line: entry.line)
                }
                if head >= entries.count {
                    // Reuse reduced slots.
                    head -= entries.count
                    queue.replaceSubrange(head..<(head + entries.count), with: entries)
                } else {
                    queue.insert(contentsOf: entries, at: head)
                }
                if entry.ticket != 0 { outstanding[entry.ticket, default: 0] += entries.count }
            }
            if entry.ticket != 0, let left = outstanding[entry.ticket] {
                if left <= 1 {
                    outstanding[entry.ticket] = nil
                    if waiters > 0 { lock.broadcast() }
                } else {
                    outstanding[entry.ticket] = left - 1
                }
            }
            let resume = queue.count - head <= Self.effectQueueLimit / 2 ? takeParked() : []
            lock.unlock()
            for continuation in resume { continuation.resume(returning: false) }
        }
    }

    /// Stops draining (lock held; released here): wakes the callers waiting for their work and
    /// resumes the parked effect sends; with `scheduling`, schedules a drain of what others
    /// queued.
    private func leaveDrain(scheduling: Bool) {
        drainer = 0
        drainingTicket = 0
        if waiters > 0 { lock.broadcast() }
        guard scheduling || !parked.isEmpty else {
            // The common case, without the closure and the array below.
            lock.unlock()
            return
        }
        let resume = takeParked()
        let schedule = scheduling ? scheduleDrainLocked() : {}
        lock.unlock()
        for continuation in resume { continuation.resume(returning: false) }
        schedule()
    }

    /// The parked effect sends, to resume once the lock is released (lock held).
    private func takeParked() -> [CheckedContinuation<Bool, Never>] {
        guard !parked.isEmpty else { return [] }
        defer { parked = [] }
        return parked
    }

    /// Schedules a drain of what is queued: a main-actor job on a main-actor store, else a task.
    /// Returns what to call once the lock is released (lock held).
    private func scheduleDrainLocked() -> () -> Void {
        if onMainActor {
            guard !mainDrainScheduled else { return {} }
            mainDrainScheduled = true
            return { Task { @MainActor [weak self] in self?.drainOnMainActor() } }
        }
        guard !backgroundDrainScheduled else { return {} }
        backgroundDrainScheduled = true
        return { Task { [weak self] in self?.drainInBackground() } }
    }

    /// `send`'s path when nothing is queued and no one reduces (lock held; released here):
    /// this thread becomes the drainer and reduces `action` without queueing it, then drains
    /// what its effect sent at once and what its subscribers sent, as `drain(_:until:)` does
    /// for a queued action. The action itself is not counted in `outstanding`: only what it
    /// leads to is, under its ticket.
    private func reduceFirst(_ action: Action, ticket: UInt64, file: StaticString, line: UInt, _ me: UInt) {
        drainer = me
        drainingTicket = ticket
        lock.unlock()
        // What the effects send at once is reduced next, depth first, as `drain` reduces the
        // entries it inserts at the queue's head (before anything queued meanwhile).
        var sent = Effect<Action>.none
        commitReduction(of: action, file: file, line: line, leavingEffect: &sent)
        if sent.isNone {
            lock.lock(as: me)
        } else {
            reduceEffectAndLock(&sent, file: file, line: line)
        }
        guard head < queued else {
            // Nothing queued meanwhile: leave as `drain` leaves an empty queue (reduced entries
            // are dropped; `head == 0` here means there are none).
            if head != 0 {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            leaveDrain(scheduling: false)
            return
        }
        // What subscribers sent (under this send's ticket) and what others queued.
        lock.unlock()
        drain(me, until: ticket)
    }

    /// Starts the effect ``reduceFirst(_:ticket:file:line:_:)``'s action returned and reduces
    /// what it sent at once, depth first (lock not held on entry; held on return). Apart from
    /// `reduceFirst`, so that an action with no effect (the common case) neither reads the
    /// marks nor makes the array of follow-ups: in this unspecialized code, an array of
    /// actions, even empty, looks up generic metadata.
    @inline(never)
    private func reduceEffectAndLock(_ effect: inout Effect<Action>, file: StaticString, line: UInt) {
        lock.lock()
        if effect.isSend {
            reduceSent(&effect, file: file, line: line)
            return
        }
        let marks = markIDs
        lock.unlock()
        let followUps = start(&effect, ids: marks)
        lock.lock()
        if followUps.count != 0 { reduceFollowUps(followUps, file: file, line: line) }
    }

    /// Reduces the action `sent` sends (a `.send` effect, the common case of an effect that
    /// sends at once), then what that one's effect sends, depth first, as
    /// ``reduceFollowUps(_:file:line:)`` does for an array of them (lock held, released while
    /// each is reduced). Without an array: making one cost an allocation and two look-ups of
    /// generic metadata per send (about 900 of a `.send` round trip's 5 680 instructions).
    @inline(never)
    private func reduceSent(_ sent: inout Effect<Action>, file: StaticString, line: UInt) {
        while !sent.isNone, !isEnded {
            let next = sent._sentAction
            sent = .none
            let marks = markIDs
            lock.unlock()
            let more = reduce(next, file: file, line: line, under: marks, leavingSend: &sent)
            lock.lock()
            if more.count != 0 { reduceFollowUps(more, file: file, line: line) }
        }
    }

    /// Reduces what the effects of ``reduceFirst(_:ticket:file:line:_:)``'s action sent at
    /// once, depth first (lock held, released while each is reduced). Apart from it: the array
    /// of actions, generic, costs metadata lookups wherever it is handled.
    ///
    /// Reads by index, and rebuilds the array only when an action sends more: `removeFirst`
    /// and `insert(contentsOf:at:)` looked up the metadata of four generic types per action.
    @inline(never)
    private func reduceFollowUps(_ sent: [Action], file: StaticString, line: UInt) {
        var followUps = sent
        var index = 0
        while index < followUps.count, !isEnded {
            let next = followUps[index]
            index += 1
            let marks = markIDs
            lock.unlock()
            let more = reduce(next, file: file, line: line, under: marks)
            if more.count != 0 {
                // Depth first: what `next` sent comes before the rest.
                followUps = more + followUps[index...]
                index = 0
            }
            lock.lock()
        }
    }

    /// Reduces one action in a commit and starts its effect; returns the actions the effect
    /// sent synchronously.
    private func reduce(_ entry: Entry, under marks: [_TaskKey]) -> [Action] {
        reduce(entry.action, file: entry.file, line: entry.line, under: marks)
    }

    private func reduce(_ action: Action, file: StaticString, line: UInt, under marks: [_TaskKey]) -> [Action] {
        var sent = Effect<Action>.none
        let followUps = reduce(action, file: file, line: line, under: marks, leavingSend: &sent)
        return sent.isNone ? followUps : [sent._sentAction]
    }

    /// ``reduce(_:file:line:under:)``, except that an effect made by ``Effect/send(_:)`` is left
    /// in `sent` (`.none` on entry) for the caller to reduce its action next, instead of in an
    /// array (see ``reduceSent(_:file:line:)``); then it returns no action.
    private func reduce(
        _ action: Action, file: StaticString, line: UInt, under marks: [_TaskKey],
        leavingSend sent: inout Effect<Action>
    ) -> [Action] {
        commitReduction(of: action, file: file, line: line, leavingEffect: &sent)
        if sent.isNone || sent.isSend { return [] }
        return start(&sent, ids: marks)
    }

    /// Starts `effect` under `ids`, leaving `.none` in its place; returns what it sent at once.
    private func start(_ effect: inout Effect<Action>, ids: [_TaskKey]) -> [Action] {
        var followUps: [Action] = []
        start(effect, ids: ids, followUps: &followUps)
        effect = .none
        return followUps
    }

    /// Reduces `action` in a commit, leaving its effect in `effect` (`.none` on entry).
    @inline(__always)
    private func commitReduction(
        of action: Action, file: StaticString, line: UInt, leavingEffect effect: inout Effect<Action>
    ) {
        let reducer = reducer
        // The effect leaves the commit through a capture, not as its result: a generic result
        // would make this unspecialized code look up `Effect<Action>`'s metadata on every send.
        // Into `effect` itself: a second local `.none` cost a trivial send 47 instructions.
        core.commit(Transaction(action: action, file: file, line: line)) { state, _ in
            effect = reducer.reduce(into: &state, action: action)
        }
    }

    // MARK: Lifetime

    /// Cancels every effect and clears the queue; with `ending`, for good.
    package func stop(ending: Bool) {
        let (cancels, resume) = lock.withLock { () -> ([@Sendable () -> Void], [CheckedContinuation<Bool, Never>]) in
            if ending { isEnded = true }
            queue.removeAll()
            head = 0
            outstanding = [:]
            if waiters > 0 { lock.broadcast() }
            let resume = takeParked()
            throttles.removeAll()
            runningByID = [:]
            for effect in running.values { effect.token.isCancelled = true }
            defer { running = [:] }
            return (running.values.map(\.cancel), resume)
        }
        for continuation in resume { continuation.resume(returning: false) }
        for cancel in cancels { cancel() }
    }

    /// Starts the reducer's global inputs.
    ///
    /// When no one reduces, this thread holds the queue while they start, as a reduction does:
    /// what they send at once (`.send`) is reduced first, before what their other effects send
    /// meanwhile (a `create` at once, a task on another thread).
    func bind() {
        let me = _Lock.currentThread
        let holds = lock.withLock { () -> Bool in
            guard drainer == 0, !isEnded else { return false }
            drainer = me
            return true
        }
        var followUps: [Action] = []
        start(reducer.bind(), ids: [.reducerInputs], followUps: &followUps)
        guard holds else {
            for action in followUps { sendFromEffect(action, from: nil) }
            return
        }
        if let intercept {
            for action in followUps { intercept(action) }
            followUps = []
        }
        lock.lock()
        queue.insert(contentsOf: followUps.map { Entry(action: $0, ticket: 0, file: #fileID, line: #line) }, at: head)
        if onMainActor, intercept == nil {
            // Reduced on the main actor, by a job, as effect actions are.
            drainer = 0
            let schedule = head < queue.count && !mainDrainScheduled
            if schedule { mainDrainScheduled = true }
            lock.unlock()
            if schedule {
                Task { @MainActor [weak self] in self?.drainOnMainActor() }
            }
            return
        }
        lock.unlock()
        drain(me, until: 0)
    }

    // MARK: Marked effects (test stores)

    /// Runs `body` (a test store's `send`), starting the effects of the actions it reduces
    /// under the cancellation id `mark` as well as their own: every effect they start, at once
    /// or later from inside their tasks, carries it, so ``cancelEffects(marked:)`` and
    /// ``runningEffectCount(marked:)`` reach exactly that send's effects.
    package func markingEffects<T>(_ mark: some Hashable & Sendable, _ body: () throws -> T) rethrows -> T {
        lock.withLock { markIDs = [_TaskKey(mark)] }
        defer { lock.withLock { markIDs = [] } }
        return try body()
    }

    /// Cancels the effects started under `mark` (see ``markingEffects(_:_:)``).
    package func cancelEffects(marked mark: some Hashable & Sendable) {
        cancel(_TaskKey(mark))
    }

    /// How many effects started under `mark` are running (tasks and `create` continuations).
    package func runningEffectCount(marked mark: some Hashable & Sendable) -> Int {
        lock.withLock { runningByID[_TaskKey(mark)]?.count ?? 0 }
    }

    /// For tests: the actions queued, not reduced yet.
    package var queuedCountForTesting: Int {
        lock.withLock { queue.count - head }
    }

    /// For tests: the effect sends waiting for room in the queue.
    package var parkedSendCountForTesting: Int {
        lock.withLock { parked.count }
    }

    /// How many effects are running (tasks and `create` continuations), for test stores.
    package var runningEffectCount: Int {
        lock.withLock { running.count }
    }

    /// How many effects are running apart from the reducer's global inputs (those `bind()`
    /// started, which run for the store's life): what a test store reports as still running
    /// at the end of a test.
    package var runningActionEffectCount: Int {
        lock.withLock { running.count - (runningByID[.reducerInputs]?.count ?? 0) }
    }

    /// How many effect tasks are running (not counting `create` continuations), for test
    /// stores.
    package var runningTaskCount: Int {
        lock.withLock { running.values.count(where: \.isTask) }
    }
}

/// A running effect's mark of cancellation, which its sends check: guarded by its engine's
/// `lock`.
final class _EffectToken: @unchecked Sendable {
    var isCancelled = false
}

/// A clock reduced to what effects need, measured from the moment the store was created.
struct _ElapsedClock: Sendable {
    let now: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleepUntil = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }
}

extension _ReducerEngine {
    var waitName: String { core.name }

    func blocker(of waiter: UInt) -> (thread: UInt, canHandOver: Bool) {
        lock.withLock { drainer != 0 && drainer != waiter ? (drainer, true) : (0, false) }
    }

    func wakeToRecheck() {
        lock.withLock {
            recheckEpoch &+= 1
            lock.broadcast()
        }
    }
}
