import Ripple

extension Effect {
    /// Whether starting this effect finishes at once: it only sends, cancels or combines such
    /// effects.
    var _isImmediate: Bool {
        switch operation {
        case .none, .send, .cancel: true
        case .concat(let effects), .merge(let effects): effects.allSatisfy(\._isImmediate)
        case .cancellable(_, _, let effect): effect._isImmediate
        case .run, .create, .debounce, .throttle: false
        }
    }
}

extension _ReducerEngine {
    /// Starts `effect` under the cancellation `ids` around it. What it sends at once goes to
    /// `followUps`; its asynchronous work starts in tasks.
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

    /// Runs `effect` to its end inside the effect task of `token` (a `concat`'s later steps, a
    /// debounced or throttled effect): what it sends is queued like any effect action.
    func run(_ effect: Effect<Action>, ids: [_TaskKey], in token: _EffectToken) async {
        switch effect.operation {
        case .none:
            return
        case .send(let action):
            if !Task.isCancelled { sendFromEffect(action, from: token) }
        case .merge(let effects):
            await withTaskGroup(of: Void.self) { group in
                for effect in effects {
                    group.addTask { await self.run(effect, ids: ids, in: token) }
                }
            }
        case .concat(let effects):
            for effect in effects {
                if Task.isCancelled { return }
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
            // Its own task, so that cancelling `id` stops it and not the steps around it.
            let inner = ids + [id]
            await spawn(ids: inner, priority: nil) { engine, token in await engine.run(effect, ids: inner, in: token) }?
                .value
        case .cancel(let id):
            cancel(id)
        case .debounce(let id, let duration, let effect):
            await debounce(id, duration, effect, ids: ids)?.value
        case .throttle(let id, let duration, let latest, let effect):
            for (due, dueIDs) in throttle(id, duration, latest: latest, effect, ids: ids) {
                // Its own task, so that cancelling `id` stops it (as in `.cancellable`).
                await spawn(ids: dueIDs, priority: nil) { engine, token in await engine.run(due, ids: dueIDs, in: token)
                }?.value
            }
        }
    }

    /// Cancels what runs under `id`, then starts `effect` after `duration` in a task under
    /// `id`; returns the task.
    @discardableResult
    func debounce(_ id: _TaskKey, _ duration: Duration, _ effect: Effect<Action>, ids: [_TaskKey]) -> Task<Void, Never>?
    {
        cancel(id)
        let deadline = clock.now() + duration
        let inner = ids + [id]
        return spawn(ids: inner, priority: nil) { engine, token in
            do { try await engine.clock.sleepUntil(deadline) } catch { return }
            await engine.run(effect, ids: inner, in: token)
        }
    }

    /// Runs a `run` effect's operation, in the effect task of `token`; its error goes to its
    /// handler or is reported.
    func perform(
        _ operation: @Sendable (Send<Action>) async throws -> Void,
        _ handler: (@Sendable (any Error, Send<Action>) async -> Void)?,
        in token: _EffectToken
    ) async {
        let send = Send<Action>(waiting: { [weak self] action in
            await self?.sendFromEffectWaiting(action, from: token)
        })
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

    /// Starts `body` in a task registered under `ids` (and its own number), giving it the
    /// task's cancellation token; returns the task, or `nil` when the store has ended.
    @discardableResult
    func spawn(
        ids: [_TaskKey],
        priority: TaskPriority?,
        _ body: @escaping @Sendable (_ReducerEngine, _EffectToken) async -> Void
    ) -> Task<Void, Never>? {
        lock.lock()
        if isEnded {
            lock.unlock()
            return nil
        }
        nextEffect += 1
        let number = nextEffect
        let token = _EffectToken()
        // Created with the lock held so that it is registered before it can end; creating a
        // task runs none of its code.
        let task = Task(priority: priority) { [weak self] in
            guard let self else { return }
            await _EffectTaskOwner.$engine.withValue(ObjectIdentifier(self)) { await body(self, token) }
            self.finished(number)
        }
        register(number, Running(ids: ids, isTask: true, token: token, cancel: { task.cancel() }))
        lock.unlock()
        return task
    }

    /// Starts a `create` effect: `body` gets a continuation registered under `ids`; `onEnd`
    /// runs when it ends.
    func create(_ body: @Sendable (EffectContinuation<Action>) -> Void, ids: [_TaskKey], onEnd: (@Sendable () -> Void)?)
    {
        lock.lock()
        if isEnded {
            lock.unlock()
            onEnd?()
            return
        }
        nextEffect += 1
        let number = nextEffect
        let token = _EffectToken()
        let continuation = EffectContinuation<Action>(
            deliver: { [weak self] action in self?.sendFromEffect(action, from: token) },
            ended: { [weak self] in self?.finished(number) }
        )
        register(number, Running(ids: ids, isTask: false, token: token, cancel: { continuation.terminate() }))
        lock.unlock()
        if let onEnd { continuation.onTermination(onEnd) }
        body(continuation)
    }

    /// Records a running effect (lock held).
    private func register(_ number: UInt64, _ effect: Running) {
        running[number] = effect
        for id in effect.ids {
            runningByID[id, default: []].insert(number)
        }
    }

    /// Forgets an effect that ended.
    func finished(_ number: UInt64) {
        lock.withLock {
            guard let effect = running.removeValue(forKey: number) else { return }
            for id in effect.ids {
                runningByID[id]?.remove(number)
                if runningByID[id]?.isEmpty == true { runningByID[id] = nil }
            }
        }
    }

    /// Cancels every effect running under `id` (and forgets a throttle's held effect).
    func cancel(_ id: _TaskKey) {
        let cancels = lock.withLock { () -> [@Sendable () -> Void] in
            throttles.forget(id)
            guard let numbers = runningByID.removeValue(forKey: id) else { return [] }
            var cancels: [@Sendable () -> Void] = []
            for number in numbers {
                guard let effect = running.removeValue(forKey: number) else { continue }
                effect.token.isCancelled = true
                for other in effect.ids where other != id {
                    runningByID[other]?.remove(number)
                    if runningByID[other]?.isEmpty == true { runningByID[other] = nil }
                }
                cancels.append(effect.cancel)
            }
            return cancels
        }
        for cancel in cancels { cancel() }
    }

    /// Decides a throttled effect (see `_ThrottleWindows`): returns the effects to start now, in
    /// order, each with the cancellation ids to start it under, and starts the window's timer.
    func throttle(
        _ id: _TaskKey, _ duration: Duration, latest: Bool?, _ effect: Effect<Action>, ids: [_TaskKey]
    ) -> [(Effect<Action>, [_TaskKey])] {
        let now = clock.now()
        let decision = lock.withLock {
            throttles.arrive(effect, id: id, duration: duration, latest: latest, ids: ids, now: now)
        }
        if let (waitUntil, number) = decision.timer {
            let inner = ids + [id]
            let timer = spawn(ids: inner, priority: nil) { engine, token in
                do { try await engine.clock.sleepUntil(waitUntil) } catch { return }
                await engine.closeWindow(id, number, duration, in: token)
            }
            if let timer {
                let obsolete = lock.withLock { throttles.attach(timer, number: number, for: id) }
                obsolete?.cancel()
            }
        }
        return decision.due
    }

    /// The throttle window `number` closed: starts the held effect, which opens the next
    /// window (see `_ThrottleWindows.closeWindow`).
    private func closeWindow(_ id: _TaskKey, _ number: UInt64, _ duration: Duration, in token: _EffectToken) async {
        let now = clock.now()
        let held = lock.withLock { throttles.closeWindow(id, number: number, duration: duration, now: now) }
        if let (effect, ids) = held {
            await run(effect, ids: ids, in: token)
        }
    }
}
