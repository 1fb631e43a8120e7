import Ripple

/// A store's core, as what a derived value or a subscription comes from: something that ends,
/// and runs what was registered then.
protocol _StoreLifetime: AnyObject, Sendable {
    /// Registers `ending` to run when the store is released; a key for ``forget(_:)``, or
    /// `nil` (having run `ending`) when it is gone already.
    func onEnd(_ ending: @escaping @Sendable () -> Void) -> Int?
    /// Forgets what ``onEnd(_:)`` registered under `id`.
    func forget(_ id: Int)
}

extension _StoreCore: _StoreLifetime {}

/// A store a derived value comes from, held weakly (a derived value never keeps its store).
struct _DerivedSource: @unchecked Sendable {
    // @unchecked: a weak reference to a `Sendable` object.
    weak var lifetime: (any _StoreLifetime)?

    init(_ lifetime: any _StoreLifetime) {
        self.lifetime = lifetime
    }
}

/// The stores a derived value or a subscription comes from, held weakly, for
/// ``Ripple/Subscription/storeWhileSourceActive()``.
///
/// Shared, so that knowing them costs a derived value and a subscription one word: each store
/// makes one (`Store._sourceStores`), which its derived values, the values derived from those,
/// and the subscriptions of `sinkValue` and `sinkState` (as their `Subscription._context`) all
/// point to; only a ``combined(_:)`` value makes its own.
@usableFromInline
final class _SourceStores: Sendable {
    /// The distinct stores, in order.
    let stores: [_DerivedSource]

    init(_ stores: [_DerivedSource]) {
        self.stores = stores
    }

    /// The distinct stores of `lists`, in order, and one store already released if any was:
    /// a subscription stored while its sources are active then ends at once, whether a store
    /// went before or after the union was made.
    ///
    /// - Complexity: O(n) in the number of stores.
    static func union(_ lists: [_SourceStores]) -> _SourceStores {
        if let first = lists.first, lists.allSatisfy({ $0 === first }) { return first }
        var seen: Set<ObjectIdentifier> = []
        var result: [_DerivedSource] = []
        var keptReleased = false
        for source in lists.lazy.map(\.stores).joined() {
            guard let lifetime = source.lifetime else {
                if !keptReleased { result.append(source) }
                keptReleased = true
                continue
            }
            guard seen.insert(ObjectIdentifier(lifetime)).inserted else { continue }
            result.append(source)
        }
        return _SourceStores(result)
    }

    /// The `Subscription._context` of a subscription already handed to its stores: a second
    /// ``Ripple/Subscription/storeWhileSourceActive()`` finds it and does nothing.
    static let handedOver = _SourceStores([])
}

/// What a stored subscription's source stores hold: the subscription, until the first of them
/// is released (it then cancels it and makes the others forget it).
final class _SourceLink: @unchecked Sendable {
    // @unchecked: `registrations` and `isEnded` are guarded by `lock`; `subscription` is only
    // read.
    private let subscription: Subscription
    private let lock = _Lock()
    private var registrations: [(source: _DerivedSource, id: Int)] = []
    private var isEnded = false

    init(_ subscription: Subscription) {
        self.subscription = subscription
    }

    /// Registers with every source; ends at once when one is gone already.
    func attach(to sources: [_DerivedSource]) {
        for source in sources {
            guard let lifetime = source.lifetime else {
                end()
                return
            }
            guard let id = lifetime.onEnd({ [self] in end() }) else { return }  // ran `end()`
            let keep = lock.withLock { () -> Bool in
                if isEnded { return false }
                registrations.append((source, id))
                return true
            }
            if !keep {
                lifetime.forget(id)
                return
            }
        }
    }

    /// A source was released: cancels the subscription and makes the other sources forget it.
    func end() {
        let taken = lock.withLock { () -> [(source: _DerivedSource, id: Int)]? in
            if isEnded { return nil }
            isEnded = true
            defer { registrations = [] }
            return registrations
        }
        guard let taken else { return }
        subscription.cancel()
        for registration in taken { registration.source.lifetime?.forget(registration.id) }
    }
}
