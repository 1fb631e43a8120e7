import Testing
@testable import Ripple

/// A main-actor model that stores its own derived values and reactions.
@MainActor
final class Checklist {
    let items = Stored(["milk", "eggs"])
    let done = Stored(Set<String>())
    var title = ""
    private let bag = SubscriptionBag()

    lazy var remaining = MainActorComputed(owner: self) { list in
        list.items.value.count { !list.done.value.contains($0) }
    }
    lazy var summary = MainActorComputed(owner: self) { list in
        "\(list.remaining.value) of \(list.items.value.count) left"
    }

    init() {
        observeOnMainActor(owner: self) { list in
            list.title = list.summary.value
        }.store(in: bag)
    }
}

/// A model shared across threads that stores its own derived values and reactions.
final class Cart: @unchecked Sendable {
    let prices = Stored([2, 3])
    let log = Recorder<Int>()
    private let bag = SubscriptionBag()

    private(set) lazy var total = Computed(owner: self) { cart in cart.prices.value.reduce(0, +) }

    init() {
        _ = total  // created before the cart is shared
        observe(owner: self) { cart in cart.log.append(cart.total.value) }.store(in: bag)
    }
}

@Suite("Derived values and reactions inside a class")
struct OwnerLeakTests {
    @Test("a main-actor model holding derived values and reactions is freed when its last owner lets it go")
    @MainActor
    func mainActorModelIsFreed() {
        weak var weakList: Checklist?
        let items: Stored<[String]>
        do {
            let list = Checklist()
            weakList = list
            items = list.items
            #expect(list.title == "2 of 2 left")
            list.done.value.insert("milk")
            #expect(list.title == "1 of 2 left")
            // A read outside any reaction, as a SwiftUI body makes: arms Observation.
            #expect(list.summary.value == "1 of 2 left")
            #expect(items.hasObserversForTesting)
        }
        #expect(weakList == nil)
        #expect(!items.hasObserversForTesting)
    }

    @Test("a model shared across threads holding derived values and reactions is freed when its last owner lets it go")
    func sendableModelIsFreed() {
        weak var weakCart: Cart?
        let prices: Stored<[Int]>
        do {
            let cart = Cart()
            weakCart = cart
            prices = cart.prices
            cart.prices.value.append(5)
            #expect(cart.log.all == [5, 10])
            #expect(cart.total.value == 10)
        }
        #expect(weakCart == nil)
        #expect(!prices.hasObserversForTesting)
    }

    @Test("a derived value outliving its owner keeps its last value and depends on nothing")
    func derivedValueOutlivesOwner() {
        var cart: Cart? = Cart()
        let total = cart!.total
        let prices = cart!.prices
        cart = nil
        prices.value = [100]
        #expect(total.value == 5)
        #expect(!prices.hasObserversForTesting)
    }

    @Test("the weak-owner reaction stops once its owner is gone")
    func reactionStopsWithoutOwner() {
        final class Owner: Sendable {
            let runs = Counter()
        }
        let source = Stored(0)
        var owner: Owner? = Owner()
        let runs = owner!.runs
        let subscription = observe(owner: owner!) { owner in
            _ = source.value
            owner.runs.increment()
        }
        source.value = 1
        #expect(runs.value == 2)
        owner = nil
        source.value = 2
        #expect(runs.value == 2)
        #expect(!source.hasObserversForTesting)
        subscription.cancel()
    }

    @Test("an owner whose last other reference goes during a derivation is deinitialized after the lock is released")
    func ownerDeinitializedOutsideTheLock() {
        final class Owner: Sendable {
            let source = Stored(1)
            let lockHeldInDeinit: Cell<Bool?>
            init(_ lockHeldInDeinit: Cell<Bool?>) { self.lockHeldInDeinit = lockHeldInDeinit }
            deinit { lockHeldInDeinit.value = _graph.lock.isHeldForTesting }
        }
        let lockHeldInDeinit = Cell<Bool?>(nil)
        let holder = Cell<Owner?>(Owner(lockHeldInDeinit))
        let value = Computed(owner: holder.value!) { owner in
            // The owner's other owner lets it go while the derivation holds it (as another
            // thread could): the derivation's reference is now the last one.
            holder.value = nil
            return owner.source.value
        }
        #expect(value.value == 1)
        #expect(lockHeldInDeinit.value == false)
    }
}
