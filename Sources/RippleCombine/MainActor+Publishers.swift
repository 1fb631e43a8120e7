import Dispatch
import Ripple
import RippleModels

extension MainActorComputed where Value: Sendable {
    /// A publisher of the value, for main-actor code: the current value when a subscriber first
    /// asks, then each change, sent on the main actor.
    ///
    /// ```swift
    /// let cancellable = model.title.publisher.removeDuplicates().sink { label.text = $0 }
    /// ```
    ///
    /// Subscribe on the main actor (as main-actor code does): the first demand starts a
    /// main-actor handler (`didChange(withCurrent:handler:)`), and made on
    /// another thread it stops the program with a message saying so. A subscriber with no demand
    /// left gets only the newest value when it asks again. It does not keep this value alive.
    public var publisher: RipplePublisher<Value> {
        RipplePublisher(onMainActor: "MainActorComputed.publisher") { [weak self] send in
            self?.didChange(withCurrent: true) { send($0) } ?? Ripple.Subscription {}
        }
    }
}

extension RipplePublisher {
    /// A publisher of a main-actor source: `start` runs on the main actor at a subscriber's first
    /// demand, which must be made there; made on another thread, the program stops with a
    /// message naming `source`.
    init(
        keepsEveryValue: Bool = false,
        onMainActor source: StaticString,
        _ start: @escaping @MainActor (_ send: @escaping @Sendable (Output) -> Void) -> Ripple.Subscription
    ) {
        self.init(keepsEveryValue: keepsEveryValue) { send in
            precondition(
                _isRunningOnMainActor(),
                "\(source): subscribed (first demand) off the main actor; subscribe to it on the main actor")
            return MainActor.assumeIsolated { start(send) }
        }
    }
}

extension Publisher where Failure == Never, Output: Sendable {
    /// Writes every value this publisher produces through `binding`, a main-actor model's
    /// property (`model.bindings.name`), on the main actor.
    ///
    /// ```swift
    /// let cancellable = names.assign(to: model.bindings.name)
    /// ```
    ///
    /// A value produced on the main actor is written at once; one produced on another thread is
    /// queued to the main queue and written there later (values from one thread in the order
    /// produced), unless the cancellable was cancelled or released meanwhile. Receive on the main
    /// actor first if the order across threads matters.
    ///
    /// - Returns: A cancellable that stops the writes when cancelled or released.
    @MainActor
    public func assign(to binding: MainActorValueBinding<Output>) -> AnyCancellable {
        let writes = _MainActorWrites(binding)
        let cancellable = sink(receiveValue: Self._write(to: writes))
        return AnyCancellable {
            writes.stop()
            cancellable.cancel()
        }
    }

    /// The sink of ``assign(to:)``, made outside the main actor: a closure made in its body
    /// would be isolated to the main actor, and a value from another thread would stop the
    /// program in its isolation check.
    private nonisolated static func _write(to writes: _MainActorWrites<Output>) -> @Sendable (Output) -> Void {
        { value in
            if _isRunningOnMainActor() {
                MainActor.assumeIsolated { writes.write(value) }
            } else {
                DispatchQueue.main.async { MainActor.assumeIsolated { writes.write(value) } }
            }
        }
    }
}

/// The writes of one ``Publisher/assign(to:)`` to a main-actor binding, which stop when its
/// cancellable is cancelled: a value queued to the main queue before is not written after.
final class _MainActorWrites<Value: Sendable>: @unchecked Sendable {
    private let binding: MainActorValueBinding<Value>
    private let lock = _Lock()
    /// Guarded by `lock`.
    private var stopped = false

    init(_ binding: MainActorValueBinding<Value>) {
        self.binding = binding
    }

    /// Writes `value`, unless the writes stopped.
    @MainActor
    func write(_ value: Value) {
        guard !lock.withLock({ stopped }) else { return }
        binding.value = value
    }

    /// Stops the writes (any thread).
    func stop() {
        lock.withLock { stopped = true }
    }
}
