import Ripple
import _RippleThread

/// A store's plain subscriber (`sinkState`, `sink`): handed the snapshot it saw last (`nil` on
/// its first delivery) and the published one.
///
/// Its deliveries never overlap: the first ones run on the subscribing thread before it joins
/// the delivered sinks (``_StoreSinks``), the later ones in the runs of the store's one
/// dispatching reaction, which the core never runs twice at once.
final class _Sink: @unchecked Sendable {
    /// Called by the dispatcher without a retain of its context (`_StoreSinks.deliver`): it
    /// must stay a `let`, so that the sink, which the dispatcher's list holds, keeps it alive.
    let deliver: @Sendable (_AnySnapshot?, _AnySnapshot) -> Void
    /// Where it subscribed, named in the store's logs (formatted only there).
    let file: StaticString
    let line: UInt
    /// The version delivered last, and the snapshot itself while it differs from the one the
    /// dispatcher delivered last (`_StoreSinks.delivered`): set by the subscribing thread until
    /// the sink joins the delivered sinks, then by the dispatcher's runs only. A delivered
    /// sink keeps no snapshot of its own: a commit costs no reference counting for it.
    var lastVersion: UInt64 = 0
    var ownLast: _AnySnapshot?
    /// The snapshots dispatcher runs found while the sink was still starting, in order (guarded
    /// by the list's lock): the subscribing thread delivers each, as the runs would have.
    var pending: [_AnySnapshot] = []
    /// Whether the sink was removed (guarded by the list's lock).
    var isRemoved = false

    init(file: StaticString, line: UInt, deliver: @escaping @Sendable (_AnySnapshot?, _AnySnapshot) -> Void) {
        self.file = file
        self.line = line
        self.deliver = deliver
    }

    var label: String { "\(file):\(line)" }
}

/// The plain subscribers of a store, delivered by one reaction on the store's node: a commit
/// costs one reaction run and one closure call per subscriber, as in a Verge-style store,
/// where a reaction per subscriber cost 1 480 instructions each.
///
/// A subscriber first *starts*: it is listed as starting, then delivered the published
/// snapshot on its own thread; a dispatcher run meanwhile appends its snapshot to the sink's
/// `pending` instead of calling it, and the subscribing thread delivers those too, in order,
/// before the sink joins `active`. From then on only the dispatcher's runs call it, in
/// subscription order. So a subscriber is never called twice at once, and sees every
/// published commit from its first delivery on, once each, in order.
final class _StoreSinks: @unchecked Sendable {
    private let lock = _Lock()
    // Guarded by `lock`. The two lists with unchecked exclusivity, as the store's `handed`:
    // every dispatcher run reads both, the run-time check of each access cost about 60
    // instructions, and every access holds `lock`, so no two can overlap.
    /// Delivered by the dispatcher's runs, in subscription order (copied on write: a run reads
    /// it once and iterates its copy unlocked).
    @exclusivity(unchecked) private var active: [_Sink] = []
    @exclusivity(unchecked) private var starting: [_Sink] = []
    /// The dispatching reaction (made for the first subscriber, ended with the store).
    private var dispatcher: Subscription?
    private var isEnded = false
    /// Bumped (under `lock`) by every removal: a run that sees it move checks, under the lock,
    /// whether the sink it is about to call was removed since it copied the list.
    private let removals = UnsafeMutablePointer<UInt>.allocate(capacity: 1)

    // Touched by the dispatcher's runs only (never two at once):
    /// The snapshot the last run delivered: what every delivered sink without a snapshot of
    /// its own saw last.
    private var delivered: _AnySnapshot?

    init() { removals.initialize(to: 0) }

    deinit { removals.deallocate() }

    /// Makes the dispatching reaction with `make`, owned by nothing, if there is none yet (for
    /// the first subscriber); another thread's, made meanwhile, is kept instead (lock not held).
    func ensureDispatcher(_ make: () -> Subscription) {
        if lock.withLock({ dispatcher != nil }) { return }
        let made = withoutOwner(make)
        let extra = lock.withLock { () -> Subscription? in
            if dispatcher != nil || isEnded { return made }
            dispatcher = made
            return nil
        }
        extra?.cancel()
    }

    /// A dispatcher run: calls every delivered sink that has not seen `snapshot`, in order, and
    /// records `snapshot` for the starting ones. `wake` notes each call for the store's logger.
    func deliver(_ snapshot: _AnySnapshot, wake: ((_Sink) -> Void)?) {
        let (list, removalsThen) = lock.withLock { () -> ([_Sink], UInt) in
            for sink in starting { sink.pending.append(snapshot) }
            return (active, _ripple_counter_load(removals))
        }
        let previous = delivered
        delivered = snapshot
        if list.isEmpty { return }
        let version = snapshot.version
        _untrackedWithoutOwner {
            for index in list.indices {
                // Not retained: `list` holds every sink, and so its closure, until the loop
                // ends. A retain and a release per subscriber (of the sink, or of its closure's
                // context) cost a third of a commit with 1000 of them (perf).
                Unmanaged.passUnretained(list[index])._withUnsafeGuaranteedRef { sink in
                    if sink.lastVersion >= version { return }
                    if _ripple_counter_load(removals) != removalsThen, lock.withLock({ sink.isRemoved }) { return }
                    sink.lastVersion = version
                    wake?(sink)
                    // Two branches, not `ownLast ?? previous`: `previous` is passed as it is
                    // held, where the merged value was retained and released for every sink.
                    if sink.ownLast == nil {
                        sink.deliver(previous, snapshot)
                    } else {
                        let own = sink.ownLast
                        sink.ownLast = nil
                        sink.deliver(own, snapshot)
                    }
                }
            }
        }
    }

    /// Starts `sink` (the dispatcher exists): delivers it the published snapshot, `current()`
    /// read once the sink is listed as starting (unless `dropsFirst`), then, in order, what
    /// dispatcher runs published meanwhile, and makes it a delivered sink. `noteWake` tells
    /// the store's logger of each catch-up delivery.
    func subscribe(
        _ sink: _Sink, current: () -> _AnySnapshot, dropsFirst: Bool, noteWake: ((_Sink, UInt64) -> Void)?
    ) {
        start(sink)
        // Read after the sink is listed as starting: a commit published from now on is either
        // in this snapshot or recorded as the sink's `pending` by the dispatcher's run.
        let current = current()
        sink.lastVersion = current.version
        sink.ownLast = current
        if !dropsFirst, !isRemoved(sink) { _untrackedWithoutOwner { sink.deliver(nil, current) } }
        while let next = nextOrJoin(sink) {
            let old = sink.ownLast
            sink.lastVersion = next.version
            sink.ownLast = next
            if isRemoved(sink) { continue }
            noteWake?(sink, next.version)
            _untrackedWithoutOwner { sink.deliver(old, next) }
        }
    }

    private func start(_ sink: _Sink) {
        lock.withLock { starting.append(sink) }
    }

    /// The next snapshot the starting `sink` must be delivered, or `nil` once it has joined the
    /// delivered sinks (it saw every published snapshot up to then).
    private func nextOrJoin(_ sink: _Sink) -> _AnySnapshot? {
        lock.withLock {
            while !sink.pending.isEmpty {
                let next = sink.pending.removeFirst()
                if next.version > sink.lastVersion { return next }
            }
            if let index = starting.firstIndex(where: { $0 === sink }) {
                starting.remove(at: index)
                if !sink.isRemoved { active.append(sink) }
            }
            return nil
        }
    }

    /// Whether `sink` was removed (lock not held).
    func isRemoved(_ sink: _Sink) -> Bool {
        lock.withLock { sink.isRemoved }
    }

    /// Removes `sink`: no run calls it after this returns, except one that is calling it now on
    /// another thread.
    ///
    /// - Complexity: O(*n*) in the number of subscribers.
    func remove(_ sink: _Sink) {
        let removed = lock.withLock { () -> _Sink? in
            sink.isRemoved = true
            _ripple_counter_increment(removals)
            if let index = active.firstIndex(where: { $0 === sink }) { return active.remove(at: index) }
            if let index = starting.firstIndex(where: { $0 === sink }) { return starting.remove(at: index) }
            return nil
        }
        _ = removed  // released with the lock released
    }

    /// The store was released: ends the dispatcher (its subscribers end through the store).
    func end() {
        let ended = lock.withLock { () -> Subscription? in
            isEnded = true
            defer { dispatcher = nil }
            return dispatcher
        }
        ended?.cancel()
    }
}
