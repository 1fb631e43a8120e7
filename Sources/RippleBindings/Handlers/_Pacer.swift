import Ripple

/// The state of a throttle or a debounce: a pure state machine whose inputs return what the
/// caller must do once it has released the lock.
struct _PacerState<Value> {
    enum Mode: CustomStringConvertible {
        /// The first value opens a window; the latest value is emitted when it closes.
        case throttle
        /// Every value restarts the wait; the latest is emitted when it ends.
        case debounce

        var description: String { self == .throttle ? "throttle" : "debounce" }
    }

    enum Action {
        case none
        /// Start a timer for `generation` (a debounce also cancels the previous one).
        case startTimer(generation: UInt64)
    }

    let mode: Mode
    private var latest: Value?
    private var generation: UInt64 = 0
    private var isWaiting = false

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

    /// The timer of `generation` fired: the value to emit, or `nil` when that timer was
    /// replaced or flushed.
    mutating func timerFired(generation fired: UInt64) -> Value? {
        guard isWaiting, fired == generation else { return nil }
        return takeLatest()
    }

    /// The value still waiting, emitted now (the binding ends).
    mutating func flush() -> Value? {
        guard isWaiting else { return nil }
        generation &+= 1
        return takeLatest()
    }

    private mutating func takeLatest() -> Value? {
        isWaiting = false
        defer { latest = nil }
        return latest
    }
}

/// A throttle or a debounce on one binding's edits, with timers on an injected clock.
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

    private func fire(_ generation: UInt64) {
        let value = lock.withLock { state.timerFired(generation: generation) }
        if let value { emit(value) }
    }

    /// Emits now what is waiting, and stops the timer.
    func flush() {
        let (value, timer) = lock.withLock { () -> (Value?, Task<Void, Never>?) in
            defer { self.timer = nil }
            return (state.flush(), self.timer)
        }
        timer?.cancel()
        if let value { emit(value) }
    }
}
