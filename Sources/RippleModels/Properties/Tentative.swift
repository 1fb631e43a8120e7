import Ripple

/// A value that follows its parent but can show an optimistic local value for a while
/// (Yoyo's `TentativeProperty`).
///
/// Set a tentative value when you start an asynchronous change, so the interface reflects it
/// at once. It is shown until you ``commit()`` (the change went through), ``revert()`` (it
/// failed), or its timeout passes; then the value follows the parent again.
///
/// ```swift
/// let isFavorite = Tentative(song.isFavorite.binding)
/// isFavorite.setTentative(true, timeout: .seconds(10))
/// Task {
///     do { try await api.favorite(song.id); isFavorite.commit() }
///     catch { isFavorite.revert() }
/// }
/// ```
///
/// Timeouts are measured with the clock you pass (a `ContinuousClock` by default), so tests
/// can drive them with a manual clock. Inside a reaction, setting, committing and reverting
/// are queued after the current round, like writes. Calls made from several threads at once
/// are each applied whole, but in no guaranteed order.
public final class Tentative<Value: Sendable>: Readable, ObservableValue, Sendable {
    private struct Overlay: Sendable {
        var value: Value
        /// Identifies this tentative value, for its timeout.
        var id: Token
    }

    private let overlay = Stored<Overlay?>(nil, equals: nil)
    private let current: Computed<Value>
    private let readParentUpdates: @Sendable () -> Value
    private let writeParent: (@Sendable (Value) -> Void)?
    /// Starts a timeout now: returns the wait for its deadline on the injected clock.
    private let startTimeout: @Sendable (Duration) -> @Sendable () async throws -> Void
    /// A fresh identity per tentative value (compared with `===`).
    private final class Token: Sendable {}
    private let timer = Stored<Task<Void, Never>?>(nil, equals: nil)

    private init(
        read: @escaping @Sendable () -> Value,
        readUpdates: @escaping @Sendable () -> Value,
        write: (@Sendable (Value) -> Void)?,
        equals isEqual: (@Sendable (Value, Value) -> Bool)?,
        clock: some Clock<Duration>
    ) {
        readParentUpdates = readUpdates
        writeParent = write
        startTimeout = { timeout in
            let deadline = clock.now.advanced(by: timeout)
            return { try await clock.sleep(until: deadline, tolerance: nil) }
        }
        let overlay = overlay
        current = Computed(name: "Tentative", equals: isEqual) {
            overlay.value?.value ?? read()
        }
    }

    /// Creates a tentative value over a read-only parent. ``commit()`` stops showing the
    /// tentative value; the parent is expected to have caught up.
    public convenience init(
        _ parent: some ObservableValue<Value> & Sendable, clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            read: { parent.value }, readUpdates: { parent._readForUpdate() }, write: nil,
            equals: _equality(for: Value.self), clock: clock)
    }

    /// Creates a tentative value over a read-only parent, whose readers run again only when
    /// `isEqual` says the value changed (Yoyo's `changePredicate:`).
    ///
    /// - Parameters:
    ///   - parent: The value shown when there is no tentative one.
    ///   - isEqual: When two values count as the same; `nil`: every change notifies.
    ///   - clock: The clock timeouts are measured with.
    public convenience init(
        _ parent: some ObservableValue<Value> & Sendable, equals isEqual: (@Sendable (Value, Value) -> Bool)?,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            read: { parent.value }, readUpdates: { parent._readForUpdate() }, write: nil, equals: isEqual, clock: clock)
    }

    /// Creates a tentative value over a writable parent. ``commit()`` writes the tentative
    /// value into the parent, in the same batch that stops showing it.
    public convenience init(_ parent: ValueBinding<Value>, clock: some Clock<Duration> = ContinuousClock()) {
        self.init(
            read: { parent.value }, readUpdates: { parent._readForUpdate() }, write: { parent.value = $0 },
            equals: _equality(for: Value.self), clock: clock)
    }

    /// Creates a tentative value over a writable parent, with its own equality (Yoyo's
    /// `changePredicate:`).
    ///
    /// - Parameters:
    ///   - parent: The value shown when there is no tentative one, written by ``commit()``.
    ///   - isEqual: When two values count as the same; `nil`: every change notifies.
    ///   - clock: The clock timeouts are measured with.
    public convenience init(
        _ parent: ValueBinding<Value>, equals isEqual: (@Sendable (Value, Value) -> Bool)?,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            read: { parent.value }, readUpdates: { parent._readForUpdate() }, write: { parent.value = $0 },
            equals: isEqual, clock: clock)
    }

    deinit {
        untracked { timer.value }?.cancel()
    }

    /// The tentative value while there is one, else the parent's.
    public var value: Value { current.value }

    /// Reads the value so that the reader depends on every update.
    public func _readForUpdate() -> Value {
        if let overlay = overlay.value { return overlay.value }
        return readParentUpdates()
    }

    /// Whether a tentative value is shown. Reading it is tracked.
    public var isTentative: Bool { overlay.value != nil }

    /// Shows `value` instead of the parent's until ``commit()``, ``revert()``, another
    /// tentative value, or `timeout`.
    ///
    /// - Parameters:
    ///   - value: The optimistic value.
    ///   - timeout: How long to show it at most, measured on the clock; `nil` for no limit.
    public func setTentative(_ value: Value, timeout: Duration? = nil) {
        writeInOrder { [self] in
            let id = Token()
            overlay.value = Overlay(value: value, id: id)
            restartTimer(timeout.map { (id, $0) })
        }
    }

    /// Ends the tentative value as confirmed: a writable parent receives it; then the value
    /// follows the parent.
    public func commit() {
        writeInOrder { [self] in
            guard let shown = untracked({ overlay.value }) else { return }
            writeParent?(shown.value)
            overlay.value = nil
            restartTimer(nil)
        }
    }

    /// Drops the tentative value; the value follows the parent again.
    public func revert() {
        writeInOrder { [self] in
            overlay.value = nil
            restartTimer(nil)
        }
    }

    /// Cancels the running timeout and starts the next one, if any.
    private func restartTimer(_ next: (id: Token, timeout: Duration)?) {
        let task = next.map { next in
            // The deadline is taken now, not when the task starts.
            let wait = startTimeout(next.timeout)
            return Task { [weak self] in
                do { try await wait() } catch { return }
                self?.expire(next.id)
            }
        }
        untracked { timer.value }?.cancel()
        timer.value = task
    }

    /// Drops the tentative value `id` if it is still the one shown.
    private func expire(_ id: Token) {
        overlay.update { if $0?.id === id { $0 = nil } }
    }
}
