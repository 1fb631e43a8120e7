import Ripple

/// One subscriber's subscription to a ``RipplePublisher``: demand, the values waiting for it,
/// and the Ripple subscription that feeds it. A pure state machine behind a lock decides what
/// to send; values are sent with the lock released.
final class _PublisherSubscription<Input: Sendable>: _CombineSubscription, @unchecked Sendable {
    private let lock = _Lock()
    private var subscriber: AnySubscriber<Input, Never>?
    private var demand = Subscribers.Demand.none
    private var waiting: [Input] = []
    private var isSending = false
    private var source: Ripple.Subscription?
    private var start: (@Sendable (@escaping @Sendable (Input) -> Void) -> Ripple.Subscription)?
    private let buffering: RipplePublisher<Input>.Buffering

    init(
        _ subscriber: AnySubscriber<Input, Never>,
        buffering: RipplePublisher<Input>.Buffering,
        start: @escaping @Sendable (@escaping @Sendable (Input) -> Void) -> Ripple.Subscription
    ) {
        self.subscriber = subscriber
        self.buffering = buffering
        self.start = start
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        let starting = lock.withLock { () -> (@Sendable (@escaping @Sendable (Input) -> Void) -> Ripple.Subscription)? in
            guard subscriber != nil else { return nil }
            demand += more
            defer { start = nil }
            return start
        }
        if let starting {
            let subscription = starting { [weak self] value in self?.offer(value) }
            let cancelled = lock.withLock { () -> Bool in
                if subscriber == nil { return true }
                source = subscription
                return false
            }
            if cancelled { subscription.cancel() }
        }
        drain()
    }

    /// A value from the source: waits for demand, then is sent. For `.newest`, the values the
    /// subscriber has demand for all wait (they arrive while it receives one); only the one
    /// beyond its demand is replaced by a newer one.
    private func offer(_ value: Input) {
        lock.withLock {
            guard subscriber != nil else { return }
            switch buffering {
            case .newest where !waiting.isEmpty && demand <= .max(waiting.count):
                waiting[waiting.count - 1] = value
            case .newest, .all:
                waiting.append(value)
            }
        }
        drain()
    }

    /// Sends what waits, as far as demand allows, one value at a time with the lock released
    /// (a subscriber's `receive` may request more, or cancel).
    private func drain() {
        while true {
            let next = lock.withLock { () -> (AnySubscriber<Input, Never>, Input)? in
                guard !isSending, let subscriber, demand > .none, !waiting.isEmpty else { return nil }
                isSending = true
                demand -= 1
                return (subscriber, waiting.removeFirst())
            }
            guard let (subscriber, value) = next else { return }
            let more = subscriber.receive(value)
            lock.withLock {
                isSending = false
                demand += more
            }
        }
    }

    func cancel() {
        let source = lock.withLock { () -> Ripple.Subscription? in
            subscriber = nil
            waiting = []
            start = nil
            defer { self.source = nil }
            return self.source
        }
        source?.cancel()
    }
}
