import Ripple

/// What a ``MainActorReducerStore`` is, without the store: the action queue and the effects it
/// runs, all on the main actor.
///
/// **The queue.** `send` appends the action and, unless a reduction is under way on the main
/// actor (a subscriber sending during a commit's delivery), reduces the queue: one action at a
/// time, in order, what an effect sends at once (`Effect.send`) right after the action that
/// returned it. No lock is needed: only the main actor reduces. A send with nothing queued and
/// no reduction under way (most sends) is reduced at once, without entering the queue.
///
/// **Effects** run in main-actor tasks; their asynchronous work (`run` operations, clock
/// sleeps) runs wherever it is declared to. What they send comes back through `inbox`, in the
/// order it was sent, and is reduced by a main-actor job; an action sent by an effect that
/// was cancelled meanwhile is dropped there. Effects are registered by a serial number and by
/// every cancellation id around them, so `cancel(id:)` and the store's end reach them all.
@MainActor
package final class _MainActorReducerEngine<R: Reducer> {
    typealias State = R.State
    typealias Action = R.Action

    struct Entry {
        let action: Action
        let file: StaticString
        let line: UInt
    }

    struct Running {
        let ids: [_TaskKey]
        /// A task (not a `create` continuation, which runs only when its source calls it).
        let isTask: Bool
        let token: _EffectToken
    }

    let reducer: R
    let core: _MainActorStoreCore<State>
    let clock: _ElapsedClock
    let reportError: @Sendable (any Error) -> Void
    /// Set by a test store: effect actions go to it instead of the queue.
    let intercept: (@MainActor (Action) -> Void)?
    package nonisolated let inbox: _MainActorEffectInbox<R.Action>

    private var queue: [Entry] = []
    /// Whether `queue` holds entries (reduced or not): kept, as testing the generic array
    /// itself looks up its metadata in this unspecialized code.
    private var hasQueued = false
    private var head = 0
    private var isReducing = false
    private var isEnded = false
    private var running: [UInt64: Running] = [:]
    private var runningByID: [_TaskKey: Set<UInt64>] = [:]
    private var throttles = _ThrottleWindows<Action>()
    private var nextEffect: UInt64 = 0
    /// Set by a test store around its own `send`: the cancellation ids the effects of the
    /// actions reduced meanwhile start under (see ``markingEffects(_:_:)``). Empty otherwise.
    private var markIDs: [_TaskKey] = []

    init(
        reducer: R,
        core: _MainActorStoreCore<State>,
        clock: _ElapsedClock,
        inbox: _MainActorEffectInbox<Action>,
        reportError: @escaping @Sendable (any Error) -> Void,
        intercept: (@MainActor (Action) -> Void)?
    ) {
        self.reducer = reducer
        self.core = core
        self.clock = clock
        self.inbox = inbox
        self.reportError = reportError
        self.intercept = intercept
        inbox.connect { [weak self] in self?.takeEffectActions() }
    }

    // MARK: Sending

    /// Reduces `action` now when nothing is queued and no reduction is under way, then what it
    /// led to; else queues it and reduces the queue, unless a reduction is under way (then it is
    /// reduced after the current one, never re-entrantly).
    package func send(_ action: R.Action, file: StaticString, line: UInt) {
        guard !isEnded else { return }
        if !isReducing, !hasQueued {
            // Nothing queued and no reduction under way (the common case): reduce at once,
            // without the queue, whose generic entries cost run-time metadata lookups (about
            // 4 500 of a `send`'s 11 500 instructions went to them).
            isReducing = true
            defer { isReducing = false }
            var sent = Effect<Action>.none
            commitReduction(of: action, file: file, line: line, leavingEffect: &sent)
            if !sent.isNone { reduceEffect(&sent, file: file, line: line) }
            if hasQueued { drainQueued() }
            return
        }
        sendQueued(action, file: file, line: line)
    }

    /// Starts the effect `send`'s action returned, and reduces or queues what it sent at once.
    /// Apart from `send`, so that an action with no effect (the common case) makes no array
    /// of follow-ups: in this unspecialized code, an array of actions, even empty, looks up
    /// generic metadata.
    @inline(never)
    private func reduceEffect(_ effect: inout Effect<Action>, file: StaticString, line: UInt) {
        if effect.isSend { return reduceSent(&effect, file: file, line: line) }
        let followUps = start(&effect, ids: markIDs)
        // Called only with follow-ups: it looks up `Entry`'s metadata on every call.
        if followUps.count != 0 { queueFollowUps(followUps, file: file, line: line) }
    }

    /// Reduces the action `sent` sends (a `.send` effect) next, before anything queued
    /// meanwhile, as its queue entry would be, then what that one's effect sends at once, and
    /// queues the rest as ``queueFollowUps(_:file:line:)`` does: without the queue for the
    /// common case (a round trip through it cost about 11 000 instructions, the entries'
    /// metadata). A test store takes the action as it takes any follow-up.
    @inline(never)
    private func reduceSent(_ sent: inout Effect<Action>, file: StaticString, line: UInt) {
        var followUps: [Action] = []
        while !sent.isNone, intercept == nil, !isEnded {
            let next = sent._sentAction
            sent = .none
            followUps = reduce(next, file: file, line: line, leavingSend: &sent)
        }
        if !sent.isNone { followUps = [sent._sentAction] }
        if followUps.count != 0 { queueFollowUps(followUps, file: file, line: line) }
    }

    /// `send` while a reduction is under way or actions are queued. Out of line: code that
    /// makes an `Entry` looks up its metadata on entry, which cost every `send` 330
    /// instructions when it sat in `send`.
    @inline(never)
    private func sendQueued(_ action: Action, file: StaticString, line: UInt) {
        queue.append(Entry(action: action, file: file, line: line))
        hasQueued = true
        drain()
    }

    private func drain() {
        guard !isReducing else { return }
        isReducing = true
        defer { isReducing = false }
        drainQueued()
    }

    /// Reduces the queue, in order (a reduction under way: `isReducing` set).
    private func drainQueued() {
        while head < queue.count, !isEnded {
            let entry = queue[head]
            head += 1
            let followUps = reduce(entry.action, file: entry.file, line: entry.line)
            queueFollowUps(followUps, file: entry.file, line: entry.line)
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
        hasQueued = false
    }

    /// Hands what an effect sent at once to the test store, or queues it first (depth first:
    /// before what was queued meanwhile).
    @inline(never)
    private func queueFollowUps(_ followUps: [Action], file: StaticString, line: UInt) {
        if let intercept {
            for action in followUps { intercept(action) }
        } else if followUps.count != 0 {
            queue.insert(contentsOf: followUps.map { Entry(action: $0, file: file, line: line) }, at: head)
            hasQueued = true
        }
    }

    /// Reduces one action in a commit and starts its effect; returns what it sent at once.
    private func reduce(_ action: Action, file: StaticString, line: UInt) -> [Action] {
        var sent = Effect<Action>.none
        let followUps = reduce(action, file: file, line: line, leavingSend: &sent)
        return sent.isNone ? followUps : [sent._sentAction]
    }

    /// ``reduce(_:file:line:)``, except that an effect made by ``Effect/send(_:)`` is left in
    /// `sent` (`.none` on entry) for the caller to reduce its action next; then it returns no
    /// action (as `_ReducerEngine` does).
    private func reduce(
        _ action: Action, file: StaticString, line: UInt, leavingSend sent: inout Effect<Action>
    ) -> [Action] {
        commitReduction(of: action, file: file, line: line, leavingEffect: &sent)
        if sent.isNone || sent.isSend { return [] }
        return start(&sent, ids: markIDs)
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
        // Named after the action, when the name is read: ``Transaction/action`` holds `Sendable`
        // actions only.
        let reducer = reducer
        // The effect leaves the commit through a capture, not as its result: a generic result
        // made this unspecialized code look up `Effect<Action>`'s metadata on every send (as in
        // `_ReducerEngine.reduce`).
        core.commit(Transaction(sending: action, file: file, line: line)) { state, _ in
            effect = reducer.reduce(into: &state, action: action)
        }
    }

    /// An action an effect sent (on the main actor), unless the effect was cancelled.
    private func deliverFromEffect(_ action: Action, from token: _EffectToken) {
        guard !isEnded, !token.isCancelled else { return }
        if let intercept {
            intercept(action)
        } else {
            send(action, file: #fileID, line: #line)
        }
    }

    /// The main-actor job of `inbox`: reduces what effects sent from other threads, in order.
    private func takeEffectActions() {
        for item in inbox.take() {
            switch item {
            case .action(let action, let token):
                deliverFromEffect(action, from: token)
            case .ended(let number):
                finished(number)
            }
        }
    }

    // MARK: Lifetime

    /// Starts the reducer's global inputs; what they send at once is reduced first.
    package func bind() {
        var followUps: [Action] = []
        start(reducer.bind(), ids: [.reducerInputs], followUps: &followUps)
        if let intercept {
            for action in followUps { intercept(action) }
            return
        }
        queue.append(contentsOf: followUps.map { Entry(action: $0, file: #fileID, line: #line) })
        hasQueued = !queue.isEmpty
        drain()
    }

    /// Cancels every effect and clears the queue; with `ending`, for good.
    package func stop(ending: Bool) {
        if ending { isEnded = true }
        queue.removeAll()
        hasQueued = false
        head = 0
        throttles.removeAll()
        runningByID = [:]
        for effect in running.values { effect.token.isCancelled = true }
        running = [:]
        inbox.cancelAll(ending: ending)
    }

    /// How many effects are running (tasks and `create` continuations), for test stores.
    package var runningEffectCount: Int { running.count }

    /// Runs `body` (a test store's `send`), starting the effects of the actions it reduces
    /// under the cancellation id `mark` as well as their own: every effect they start, at once
    /// or later from inside their tasks, carries it.
    package func markingEffects<T>(_ mark: some Hashable & Sendable, _ body: () throws -> T) rethrows -> T {
        markIDs = [_TaskKey(mark)]
        defer { markIDs = [] }
        return try body()
    }

    /// Cancels the effects started under `mark` (see ``markingEffects(_:_:)``).
    package func cancelEffects(marked mark: some Hashable & Sendable) {
        cancel(_TaskKey(mark))
    }

    /// How many effects started under `mark` are running (tasks and `create` continuations).
    package func runningEffectCount(marked mark: some Hashable & Sendable) -> Int {
        runningByID[_TaskKey(mark)]?.count ?? 0
    }

    /// How many effect tasks are running, for test stores.
    package var runningTaskCount: Int { running.values.count(where: \.isTask) }

    // MARK: Effects

    func start(_ effect: Effect<Action>, ids: [_TaskKey], followUps: inout [Action]) {
        switch effect.operation {
        case .none:
            return
        case .send(let action):
            followUps.append(action)
        case .merge(let effects):
            for effect in effects { start(effect, ids: ids, followUps: &followUps) }
        case .concat(let effects):
            var index = effects.startIndex
            while index < effects.endIndex, effects[index]._isImmediate {
                start(effects[index], ids: ids, followUps: &followUps)
                index += 1
            }
            if index < effects.endIndex {
                let rest = Effect<Action>(.concat(Array(effects[index...])))
                spawn(ids: ids, priority: nil) { engine, token in await engine.run(rest, ids: ids, in: token) }
            }
        case .run(let priority, let operation, let handler):
            spawn(ids: ids, priority: priority) { engine, token in await engine.perform(operation, handler, in: token) }
        case .create(let body):
            create(body, ids: ids, onEnd: nil)
        case .cancellable(let id, let cancelInFlight, let effect):
            if cancelInFlight { cancel(id) }
            start(effect, ids: ids + [id], followUps: &followUps)
        case .cancel(let id):
            cancel(id)
        case .debounce(let id, let duration, let effect):
            debounce(id, duration, effect, ids: ids)
        case .throttle(let id, let duration, let latest, let effect):
            for (due, dueIDs) in throttle(id, duration, latest: latest, effect, ids: ids) {
                start(due, ids: dueIDs, followUps: &followUps)
            }
        }
    }

    /// Runs `effect` to its end inside the effect task of `token`.
    func run(_ effect: Effect<Action>, ids: [_TaskKey], in token: _EffectToken) async {
        switch effect.operation {
        case .none:
            return
        case .send(let action):
            guard !Task.isCancelled else { return }
            // What effects sent before, still in the inbox (a `create` continuation's actions,
            // which need no suspension to be sent), comes first.
            takeEffectActions()
            deliverFromEffect(action, from: token)
        case .merge(let effects):
            let tasks = effects.map { effect in
                spawn(ids: ids, priority: nil) { engine, token in await engine.run(effect, ids: ids, in: token) }
            }
            for task in tasks { await task?.value }
        case .concat(let effects):
            for effect in effects {
                if Task.isCancelled || token.isCancelled { return }
                await run(effect, ids: ids, in: token)
            }
        case .run(_, let operation, let handler):
            await perform(operation, handler, in: token)
        case .create(let body):
            await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
                create(body, ids: ids) { ended.resume() }
            }
        case .cancellable(let id, let cancelInFlight, let effect):
            if cancelInFlight { cancel(id) }
            let inner = ids + [id]
            await spawn(ids: inner, priority: nil) { engine, token in await engine.run(effect, ids: inner, in: token) }?
                .value
        case .cancel(let id):
            cancel(id)
        case .debounce(let id, let duration, let effect):
            await debounce(id, duration, effect, ids: ids)?.value
        case .throttle(let id, let duration, let latest, let effect):
            for (due, dueIDs) in throttle(id, duration, latest: latest, effect, ids: ids) {
                await spawn(ids: dueIDs, priority: nil) { engine, token in await engine.run(due, ids: dueIDs, in: token)
                }?.value
            }
        }
    }

    @discardableResult
    private func debounce(_ id: _TaskKey, _ duration: Duration, _ effect: Effect<Action>, ids: [_TaskKey]) -> Task<
        Void, Never
    >? {
        cancel(id)
        let deadline = clock.now() + duration
        let inner = ids + [id]
        return spawn(ids: inner, priority: nil) { engine, token in
            do { try await engine.clock.sleepUntil(deadline) } catch { return }
            await engine.run(effect, ids: inner, in: token)
        }
    }

    /// Runs a `run` effect's operation (where it is declared to run); its error goes to its
    /// handler or is reported.
    private func perform(
        _ operation: @Sendable (Send<Action>) async throws -> Void,
        _ handler: (@Sendable (any Error, Send<Action>) async -> Void)?,
        in token: _EffectToken
    ) async {
        let inbox = inbox
        let send = Send<Action>(waiting: { action in inbox.append(action, from: token) })
        do {
            try await operation(send)
        } catch is CancellationError {
            return
        } catch {
            if Task.isCancelled { return }
            if let handler {
                await handler(error, send)
            } else {
                reportError(error)
            }
        }
    }

    /// Starts `body` in a main-actor task registered under `ids`; returns the task, or `nil`
    /// when the store has ended.
    @discardableResult
    private func spawn(
        ids: [_TaskKey],
        priority: TaskPriority?,
        _ body: @escaping @MainActor (_MainActorReducerEngine, _EffectToken) async -> Void
    ) -> Task<Void, Never>? {
        guard !isEnded else { return nil }
        nextEffect += 1
        let number = nextEffect
        let token = _EffectToken()
        // Registered before it can run: it runs on the main actor, after this returns.
        let task = Task(priority: priority) { @MainActor [weak self] in
            guard let self else { return }
            await _EffectTaskOwner.$engine.withValue(ObjectIdentifier(self)) { await body(self, token) }
            self.finished(number)
        }
        register(number, Running(ids: ids, isTask: true, token: token))
        inbox.register(number, isInput: ids.contains(.reducerInputs)) { task.cancel() }
        return task
    }

    /// Starts a `create` effect.
    private func create(
        _ body: @Sendable (EffectContinuation<Action>) -> Void, ids: [_TaskKey], onEnd: (@Sendable () -> Void)?
    ) {
        guard !isEnded else {
            onEnd?()
            return
        }
        nextEffect += 1
        let number = nextEffect
        let token = _EffectToken()
        let inbox = inbox
        let continuation = EffectContinuation<Action>(
            deliver: { action in inbox.append(action, from: token) },
            ended: { inbox.ended(number) }
        )
        register(number, Running(ids: ids, isTask: false, token: token))
        inbox.register(number, isInput: ids.contains(.reducerInputs)) { continuation.terminate() }
        if let onEnd { continuation.onTermination(onEnd) }
        body(continuation)
    }

    private func register(_ number: UInt64, _ effect: Running) {
        running[number] = effect
        for id in effect.ids {
            runningByID[id, default: []].insert(number)
        }
    }

    /// Forgets an effect that ended.
    private func finished(_ number: UInt64) {
        inbox.unregister(number)
        guard let effect = running.removeValue(forKey: number) else { return }
        for id in effect.ids {
            runningByID[id]?.remove(number)
            if runningByID[id]?.isEmpty == true { runningByID[id] = nil }
        }
    }

    /// Cancels every effect running under `id` (and forgets a throttle's held effect).
    private func cancel(_ id: _TaskKey) {
        throttles.forget(id)
        guard let numbers = runningByID.removeValue(forKey: id) else { return }
        var cancels: [@Sendable () -> Void] = []
        for number in numbers {
            guard let effect = running.removeValue(forKey: number) else { continue }
            effect.token.isCancelled = true
            for other in effect.ids where other != id {
                runningByID[other]?.remove(number)
                if runningByID[other]?.isEmpty == true { runningByID[other] = nil }
            }
            if let cancel = inbox.unregister(number) { cancels.append(cancel) }
        }
        for cancel in cancels { cancel() }
    }

    /// Decides a throttled effect (see `_ThrottleWindows`): the effects to start now; starts
    /// the window's timer.
    private func throttle(
        _ id: _TaskKey, _ duration: Duration, latest: Bool?, _ effect: Effect<Action>, ids: [_TaskKey]
    ) -> [(Effect<Action>, [_TaskKey])] {
        let decision = throttles.arrive(effect, id: id, duration: duration, latest: latest, ids: ids, now: clock.now())
        if let (waitUntil, number) = decision.timer {
            let inner = ids + [id]
            let timer = spawn(ids: inner, priority: nil) { engine, token in
                do { try await engine.clock.sleepUntil(waitUntil) } catch { return }
                await engine.closeWindow(id, number, duration, in: token)
            }
            if let timer { throttles.attach(timer, number: number, for: id)?.cancel() }
        }
        return decision.due
    }

    private func closeWindow(_ id: _TaskKey, _ number: UInt64, _ duration: Duration, in token: _EffectToken) async {
        guard let (effect, ids) = throttles.closeWindow(id, number: number, duration: duration, now: clock.now()) else {
            return
        }
        await run(effect, ids: ids, in: token)
    }
}
