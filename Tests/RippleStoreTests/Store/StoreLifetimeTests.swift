import RippleStore
import Testing

private actor CoreLifetimeActor {}

@Suite("Store lifetime")
struct StoreLifetimeTests {
    @Test("releasing the token cancels the subscription and releases its closure")
    func tokenCancelsOnRelease() {
        let store = AppStore(initialState: AppState())
        let seen = Recorder<UInt64>()
        weak var weakProbe: CoreProbe?
        var token: Subscription?
        do {
            let probe = CoreProbe()
            weakProbe = probe
            token = store.sinkState { changes in
                withExtendedLifetime(probe) {}
                seen.append(changes.version)
            }
        }
        store.increment()
        #expect(seen.values == [0, 1])
        #expect(weakProbe != nil)
        token = nil
        store.increment()
        #expect(seen.values == [0, 1])
        #expect(weakProbe == nil, "the subscriber's closure outlived its token")
        withExtendedLifetime(token) {}
    }

    @Test("the tokens of every subscription form release their subscription")
    func everyFormCancelsOnRelease() {
        let store = AppStore(initialState: AppState())
        let seen = Recorder<String>()
        var tokens: [Subscription] = [
            store.sinkState { seen.append("plain@\($0.version)") },
            store.sinkState(scan: 0, { total, _ in total += 1 }) { changes, _ in seen.append("scan@\(changes.version)")
            },
        ]
        #expect(seen.values == ["plain@0", "scan@0"])
        tokens.removeAll()
        store.increment()
        #expect(seen.values == ["plain@0", "scan@0"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a token does not keep the store alive")
    @MainActor
    func tokenDoesNotRetainStore() {
        weak var weakStore: AppStore?
        var tokens: [Subscription] = []
        do {
            let store = AppStore(initialState: AppState())
            weakStore = store
            tokens.append(store.sinkState { _ in })
            tokens.append(store.sinkState(dropsFirst: true) { _ in })
            tokens.append(store.sinkState(scan: 0, { total, _ in total += 1 }) { _, _ in })
            tokens.append(store.sinkStateOnMainActor { _ in })
            tokens.append(store.sinkState(on: CoreLifetimeActor()) { _, _ in })
            store.increment()
        }
        #expect(weakStore == nil, "a subscription token kept the store alive")
        // Cancelling and releasing the tokens after the store is gone is harmless.
        for token in tokens { token.cancel() }
        tokens.removeAll()
    }

    @Test("a sink stops when the store is released: its closure is released with it")
    func sinkEndsWithStore() {
        weak var weakStore: AppStore?
        weak var weakProbe: CoreProbe?
        weak var weakScanProbe: CoreProbe?
        let seen = Recorder<UInt64>()
        var tokens: [Subscription] = []
        do {
            let store = AppStore(initialState: AppState())
            weakStore = store
            let probe = CoreProbe()
            let scanProbe = CoreProbe()
            weakProbe = probe
            weakScanProbe = scanProbe
            tokens.append(
                store.sinkState { changes in
                    withExtendedLifetime(probe) {}
                    seen.append(changes.version)
                })
            tokens.append(
                store.sinkState(
                    scan: 0,
                    { total, _ in
                        withExtendedLifetime(scanProbe) {}
                        total += 1
                    }
                ) { _, _ in })
            store.increment()
            #expect(weakProbe != nil)
        }
        #expect(weakStore == nil)
        #expect(weakProbe == nil, "the sink's closure outlived the store while its token lives")
        #expect(weakScanProbe == nil, "the scan sink's closures outlived the store while its token lives")
        #expect(seen.values == [0, 1])
        tokens.removeAll()
        #expect(seen.values == [0, 1])
    }

    @Test("a main-actor sink also ends with the store")
    @MainActor
    func mainActorSinkEndsWithStore() {
        weak var weakProbe: CoreProbe?
        var seen: [UInt64] = []
        var token: Subscription?
        do {
            let store = AppStore(initialState: AppState())
            let probe = CoreProbe()
            weakProbe = probe
            token = store.sinkStateOnMainActor { changes in
                withExtendedLifetime(probe) {}
                seen.append(changes.version)
            }
            store.increment()
        }
        // (An actor sink's first delivery may still be queued on its actor, holding the
        // closure until it has run, so it is not checked this way.)
        #expect(seen == [0, 1])
        #expect(weakProbe == nil, "the main-actor sink's closure outlived the store")
        token = nil
        withExtendedLifetime(token) {}
    }

    @Test("the store released on one thread while its token is released on another")
    func concurrentRelease() {
        final class Slot<Value>: @unchecked Sendable {
            var value: Value?
            init(_ value: Value) { self.value = value }
        }
        for _ in 0..<200 {
            let store = Slot(AppStore(initialState: AppState()))
            let seen = Recorder<UInt64>()
            let token = Slot(store.value!.sinkState { seen.append($0.version) })
            runOnThreads(2) { thread in
                if thread == 0 {
                    store.value!.increment()
                    store.value = nil
                } else {
                    token.value = nil
                }
            }
            // Delivered at most once per version, whoever ended first.
            let values = seen.values
            #expect(values == [0] || values == [0, 1])
        }
    }
}
