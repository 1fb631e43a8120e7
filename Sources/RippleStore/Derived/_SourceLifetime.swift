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

    /// The distinct sources of `lists`, in order.
    static func union(_ lists: [[_DerivedSource]]) -> [_DerivedSource] {
        var seen: Set<ObjectIdentifier> = []
        var result: [_DerivedSource] = []
        for source in lists.joined() {
            guard let lifetime = source.lifetime, seen.insert(ObjectIdentifier(lifetime)).inserted else { continue }
            result.append(source)
        }
        return result
    }
}

/// The source stores of the subscriptions made by ``Derived/sinkValue(dropsFirst:file:line:_:)``
/// and ``Store/sinkState(dropsFirst:file:line:_:)``, for
/// ``Ripple/Subscription/storeWhileSourceActive()``: a subscription does not know where it
/// comes from, so this table remembers it, by identity, without keeping it alive.
final class _SubscriptionSources: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    static let shared = _SubscriptionSources()

    private struct Entry {
        weak var subscription: Subscription?
        let sources: [_DerivedSource]
        var isStored = false
    }

    private let lock = _Lock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The size at which entries of released subscriptions are swept out.
    private var sweepAt = 64

    /// Remembers that `subscription` comes from `sources`.
    ///
    /// - Complexity: O(1) amortized: released subscriptions are swept when the table doubles.
    func record(_ subscription: Subscription, from sources: [_DerivedSource]) {
        if sources.isEmpty { return }
        let swept = lock.withLock { () -> [ObjectIdentifier: Entry]? in
            entries[ObjectIdentifier(subscription)] = Entry(subscription: subscription, sources: sources)
            guard entries.count >= sweepAt else { return nil }
            let old = entries
            entries = old.filter { $0.value.subscription != nil }
            sweepAt = max(64, entries.count * 2)
            return old
        }
        _ = swept  // released with the lock released
    }

    enum Lookup {
        case sources([_DerivedSource])
        case alreadyStored
        case unknown
    }

    /// The sources of `subscription`, marking it stored (so that a second call does nothing).
    func store(_ subscription: Subscription) -> Lookup {
        lock.withLock {
            let id = ObjectIdentifier(subscription)
            guard let entry = entries[id], entry.subscription === subscription else { return .unknown }
            if entry.isStored { return .alreadyStored }
            entries[id]?.isStored = true
            return .sources(entry.sources)
        }
    }
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
