import Ripple

/// One subscriber's subscription to a ``RipplePublisher``: demand, the values waiting for it,
/// and the Ripple subscription that feeds it. A pure state machine behind a lock decides what
/// to send; values, and the completion once the source finished and every value waiting was
/// sent, are sent with the lock released, one at a time.
final class _PublisherSubscription<Input: Sendable>: _CombineSubscription, @unchecked Sendable {
    private let lock = _Lock()
    private var subscriber: AnySubscriber<Input, Never>?
    private var demand = Subscribers.Demand.none
    private var waiting: [Input] = []
    private var isSending = false
    /// Set when the source finished: the completion follows the values waiting.
    private var isFinished = false
    private var source: Ripple.Subscription?
    /// What watches the source's end before the first demand (see `_PublisherWatch`).
    private var watcher: Ripple.Subscription?
    private var start: RipplePublisher<Input>.Start?
    private let buffering: RipplePublisher<Input>.Buffering

    init(
        _ subscriber: AnySubscriber<Input, Never>,
        buffering: RipplePublisher<Input>.Buffering,
        start: @escaping RipplePublisher<Input>.Start
    ) {
        self.subscriber = subscriber
        self.buffering = buffering
        self.start = start
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        let starting = lock.withLock { () -> RipplePublisher<Input>.Start? in
            guard subscriber != nil else { return nil }
            demand += more
            defer { start = nil }
            return start
        }
        if let starting {
            // Owned by this subscription, not by a reaction whose run asked for the first value:
            // the subscriber's cancel ends it, not that reaction's next run.
            let subscription = withoutOwner {
                starting({ [weak self] value in self?.offer(value) }, { [weak self] in self?.finish() })
            }
            let cancelled = lock.withLock { () -> Bool in
                if subscriber == nil { return true }
                source = subscription
                return false
            }
            if cancelled { subscription.cancel() }
        }
        drain()
    }

    /// Starts watching the source's end, so that the subscriber is finished when it ends even
    /// before its first demand (at once if it has ended already).
    func watch(_ watch: _PublisherWatch) {
        let watching = withoutOwner { watch({ [weak self] in self?.finish() }) }
        let ended = lock.withLock { () -> Bool in
            if subscriber == nil { return true }
            watcher = watching
            return false
        }
        if ended { watching.cancel() }
    }

    /// A value from the source: waits for demand, then is sent. For `.newest`, the values the
    /// subscriber has demand for all wait (they arrive while it receives one); only the one
    /// beyond its demand is replaced by a newer one.
    private func offer(_ value: Input) {
        lock.withLock {
            guard subscriber != nil else { return }
            switch buffering {
            case .newest where !waiting.isEmpty && demand < .max(waiting.count):
                waiting[waiting.count - 1] = value
            case .newest, .all:
                waiting.append(value)
            }
        }
        drain()
    }

    /// The source finished (the store was released): the subscriber gets the values waiting,
    /// as its demand allows, then the completion. Idempotent.
    private func finish() {
        lock.withLock {
            if subscriber != nil { isFinished = true }
        }
        drain()
    }

    /// What `drain` sends next.
    private enum Next {
        case value(AnySubscriber<Input, Never>, Input)
        case completion(AnySubscriber<Input, Never>, [Ripple.Subscription])
    }

    /// Sends what waits, as far as demand allows, one value at a time with the lock released
    /// (a subscriber's `receive` may request more, or cancel); then, once the source finished
    /// and nothing waits, the completion, once (it needs no demand).
    private func drain() {
        while true {
            let next = lock.withLock { () -> Next? in
                guard !isSending, let subscriber else { return nil }
                if !waiting.isEmpty {
                    guard demand > .none else { return nil }
                    isSending = true
                    demand -= 1
                    return .value(subscriber, waiting.removeFirst())
                }
                guard isFinished else { return nil }
                self.subscriber = nil
                start = nil
                defer { (source, watcher) = (nil, nil) }
                return .completion(subscriber, [source, watcher].compactMap { $0 })
            }
            switch next {
            case nil:
                return
            case .value(let subscriber, let value):
                let more = subscriber.receive(value)
                lock.withLock {
                    isSending = false
                    demand += more
                }
            case .completion(let subscriber, let sources):
                for source in sources { source.cancel() }
                subscriber.receive(completion: .finished)
                return
            }
        }
    }

    func cancel() {
        let sources = lock.withLock { () -> [Ripple.Subscription] in
            subscriber = nil
            waiting = []
            start = nil
            defer { (source, watcher) = (nil, nil) }
            return [source, watcher].compactMap { $0 }
        }
        for source in sources { source.cancel() }
    }
}
