import OpenCombine

/// `combineLatest` for OpenCombine 0.14, which has none: once every upstream has sent a value,
/// emits `transform(latest values)` each time any upstream sends. Demand is not tracked (every
/// subscriber in the benchmarks requests unlimited values), and it never completes.
struct CombineLatestMany<Upstream: Publisher, Output>: Publisher where Upstream.Failure == Never {
    typealias Failure = Never

    let upstreams: [Upstream]
    let transform: ([Upstream.Output]) -> Output

    init(_ upstreams: [Upstream], _ transform: @escaping ([Upstream.Output]) -> Output) {
        self.upstreams = upstreams
        self.transform = transform
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let inner = Inner(downstream: subscriber, count: upstreams.count, transform: transform)
        subscriber.receive(subscription: inner)
        for (index, upstream) in upstreams.enumerated() {
            upstream.subscribe(Side(inner: inner, index: index))
        }
    }

    final class Inner<Downstream: Subscriber>: OpenCombine.Subscription
    where Downstream.Input == Output, Downstream.Failure == Never {
        private var downstream: Downstream?
        private let transform: ([Upstream.Output]) -> Output
        private var pending: [Upstream.Output?]
        private var missing: Int
        private var latest: [Upstream.Output] = []
        var subscriptions: [any OpenCombine.Subscription] = []

        init(downstream: Downstream, count: Int, transform: @escaping ([Upstream.Output]) -> Output) {
            self.downstream = downstream
            self.transform = transform
            pending = Array(repeating: nil, count: count)
            missing = count
        }

        func receive(_ value: Upstream.Output, at index: Int) {
            if missing > 0 {
                if pending[index] == nil { missing -= 1 }
                pending[index] = value
                if missing > 0 { return }
                latest = pending.map { $0! }
                pending = []
            } else {
                latest[index] = value
            }
            _ = downstream?.receive(transform(latest))
        }

        func request(_ demand: Subscribers.Demand) {}

        func cancel() {
            let taken = subscriptions
            subscriptions = []
            downstream = nil
            for subscription in taken { subscription.cancel() }
        }
    }

    struct Side<Downstream: Subscriber>: Subscriber where Downstream.Input == Output, Downstream.Failure == Never {
        let inner: Inner<Downstream>
        let index: Int
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any OpenCombine.Subscription) {
            inner.subscriptions.append(subscription)
            subscription.request(.unlimited)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            inner.receive(input, at: index)
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {}
    }
}
