import Ripple

/// The state of a throttle or a debounce: a pure state machine whose inputs return what the
/// caller must do once it has released the lock.
///
/// Besides the edit waiting for its timer, it orders the writes to the model. Each edit taken
/// (by a timer, or by a flush when the binding ends) gets the next ticket and joins a queue,
/// and one thread at a time, the *writer*, writes the queue in ticket order with the lock
/// released. A thread that takes an edit while another thread writes leaves it in the queue
/// for that writer, which drains the queue before it gives up the role: so an older edit is
/// never written after a newer one, even when the timer's thread is slow to write the edit it
/// took. A flush, which must not return before every edit taken so far is written, waits for
/// the writer when another thread is writing (see ``Delivery``).
struct _PacerState<Value> {
    enum Mode: CustomStringConvertible {
        /// The first value opens a window; the latest value is emitted when it closes.
        case throttle
        /// Every value restarts the wait; the latest is emitted when it ends.
        case debounce

        var description: String { self == .throttle ? "throttle" : "debounce" }
    }

    /// What `receive` asks of the caller.
    enum Action {
        case none
        /// Start a timer for `generation` (a debounce also cancels the previous one).
        case startTimer(generation: UInt64)
    }

    /// What `timerFired` or `flush` asks of the calling thread, once it has released the lock.
    enum Delivery {
        /// Nothing: nothing was taken, or another thread writes what was.
        case none
        /// The calling thread is the writer: it writes what ``nextToWrite(finished:)`` returns,
        /// in turn, until it returns `nil`.
        case write
        /// Another thread is writing edits taken so far: the calling thread (a flush) waits
        /// until ``hasWritten(through:)`` holds for `ticket`.
        case wait(through: UInt64)
    }

    let mode: Mode
    private var latest: Value?
    private var generation: UInt64 = 0
    private var isWaiting = false

    /// Edits taken and not yet handed to the writer, oldest first, with their tickets.
    private var queue: [(ticket: UInt64, value: Value)] = []
    /// The ticket of the last edit taken (tickets start at 1).
    private var lastTicket: UInt64 = 0
    /// The highest ticket whose write has returned.
    private var writtenThrough: UInt64 = 0
    /// The thread writing the queue (as `_Lock.currentThread` identifies it), or 0.
    private var writer: UInt = 0
    /// How many turns the writer has open: more than one when a flush from inside a write
    /// (user code on the writer's thread ending the binding) writes the rest of the queue.
    private var writerTurns = 0

    init(mode: Mode) { self.mode = mode }

    mutating func receive(_ value: Value) -> Action {
        latest = value
        switch mode {
        case .throttle where isWaiting:
            return .none
        case .throttle, .debounce:
            generation &+= 1
            isWaiting = true
            return .startTimer(generation: generation)
        }
    }

    /// The timer of `generation` fired, on `thread`: takes the waiting edit unless that timer
    /// was replaced or flushed. The timer's thread never waits: when another thread is
    /// writing, it leaves its edit to that writer.
    mutating func timerFired(generation fired: UInt64, on thread: UInt) -> Delivery {
        guard isWaiting, fired == generation else { return .none }
        takeLatest()
        return startWriting(on: thread) ?? .none
    }

    /// The binding ends, on `thread`: takes the edit still waiting, if any, and stops its
    /// timer. Every edit taken so far must be written before the flush returns: the calling
    /// thread writes them when no other thread is writing (or when it is the writer itself,
    /// called from inside a write), and otherwise waits for the writer, which writes them.
    mutating func flush(on thread: UInt) -> Delivery {
        if isWaiting {
            generation &+= 1
            takeLatest()
        }
        if let delivery = startWriting(on: thread) { return delivery }
        return hasWritten(through: lastTicket) ? .none : .wait(through: lastTicket)
    }

    /// For the writer: records that the write of `finished` returned (if not `nil`), and
    /// returns the next edit to write; `nil` when the queue is empty, which ends this turn
    /// (and the thread's role as the writer, with its outermost turn).
    mutating func nextToWrite(finished: UInt64?) -> (ticket: UInt64, value: Value)? {
        if let finished { writtenThrough = Swift.max(writtenThrough, finished) }
        if !queue.isEmpty { return queue.removeFirst() }
        writerTurns -= 1
        if writerTurns == 0 { writer = 0 }
        return nil
    }

    /// Whether every edit up to `ticket` was written (for a flush waiting for the writer).
    func hasWritten(through ticket: UInt64) -> Bool { writtenThrough >= ticket }

    /// Moves the waiting edit to the queue, with the next ticket.
    private mutating func takeLatest() {
        isWaiting = false
        defer { latest = nil }
        guard let latest else { return }
        lastTicket &+= 1
        queue.append((lastTicket, latest))
    }

    /// Opens a turn of writing for `thread` when there is something to write and no other
    /// thread is writing; `nil` when another thread is writing. (While no thread writes, the
    /// queue is empty: whoever adds to it then becomes the writer.)
    private mutating func startWriting(on thread: UInt) -> Delivery? {
        guard writer == 0 || writer == thread else { return nil }
        guard !queue.isEmpty else { return Delivery.none }
        writer = thread
        writerTurns += 1
        return .write
    }
}

/// A throttle or a debounce on one binding's edits, with timers on an injected clock.
///
/// `emit` (the write to the model, which runs user code: transforms, reactions) is always
/// called with the lock released, and edits reach it in the order they were taken, one at a
/// time (see ``_PacerState``). `flush()` returns only once every edit taken before it has been
/// written: when a timer's thread is still writing one, the flush waits for it, with the lock
/// released. A flush called from inside that write, on the writer's own thread (a reaction to
/// the write ends the binding), cannot wait for it: it writes what remains at once, inside
/// the write under way (after it, when the flush comes from a reaction to the model; before
/// the model is written only if user code on the way to it, a `reverse` transform, ends the
/// binding).
///
/// The wait is for user code already running on another thread, as a store's commit waits
/// for its gate: should that code in turn wait for the flushing thread (a commit to a store
/// whose gate the flushing thread owns, from a subscriber that ends the binding), both would
/// wait for ever. Not waiting would let an older edit reach the model after the binding
/// ended, over a newer one.
final class _Pacer<Value>: @unchecked Sendable {
    private let lock = _Lock()
    private var state: _PacerState<Value>
    private var timer: Task<Void, Never>?
    private let interval: Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let emit: @Sendable (Value) -> Void

    init(
        mode: _PacerState<Value>.Mode,
        interval: Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        emit: @escaping @Sendable (Value) -> Void
    ) {
        state = _PacerState(mode: mode)
        self.interval = interval
        self.sleep = sleep
        self.emit = emit
    }

    deinit { timer?.cancel() }

    func send(_ value: Value) {
        lock.lock()
        let action = state.receive(value)
        guard case .startTimer(let generation) = action else { return lock.unlock() }
        let previous = timer
        let interval = self.interval
        let sleep = self.sleep
        timer = Task { [weak self] in
            do { try await sleep(interval) } catch { return }
            self?.fire(generation)
        }
        lock.unlock()
        previous?.cancel()
    }

    /// The timer of `generation` ended: writes the edit it takes, unless another thread is
    /// writing (that thread writes it after the edits before it).
    private func fire(_ generation: UInt64) {
        let thread = _Lock.currentThread
        deliver(lock.withLock { state.timerFired(generation: generation, on: thread) })
    }

    /// Writes now what is waiting, and stops the timer; returns once every edit taken so far
    /// (by a timer, or by this flush) has been written, in order.
    func flush() {
        let thread = _Lock.currentThread
        let (delivery, timer) = lock.withLock { () -> (_PacerState<Value>.Delivery, Task<Void, Never>?) in
            defer { self.timer = nil }
            return (state.flush(on: thread), self.timer)
        }
        timer?.cancel()
        deliver(delivery)
    }

    /// Does what `timerFired` or `flush` asked, with the lock released.
    private func deliver(_ delivery: _PacerState<Value>.Delivery) {
        switch delivery {
        case .none:
            return
        case .write:
            // This thread's turn as the writer: each edit in turn, the lock released around
            // the user's code, until the queue is empty. Waiting flushes are woken after each.
            var finished: UInt64?
            while true {
                let next = lock.withLock { () -> (ticket: UInt64, value: Value)? in
                    if finished != nil { lock.broadcast() }
                    return state.nextToWrite(finished: finished)
                }
                guard let next else { return }
                emit(next.value)
                finished = next.ticket
            }
        case .wait(let ticket):
            // Another thread writes the edits up to `ticket`; `wait()` releases the lock while
            // it sleeps (held once here: no user code runs under it).
            lock.lock()
            while !state.hasWritten(through: ticket) { lock.wait() }
            lock.unlock()
        }
    }
}
