import Testing
@testable import Ripple

/// Stress tests for the lifetimes of nodes that queued jobs do not retain: reactions and
/// Observation watchers created, cancelled and released on several threads while others write.
/// Bounded by iteration counts; meant to be run under the sanitizers (`.ci/run` does).
@Suite("Lifetimes under concurrency")
struct LifetimeStressTests {
    /// A thread-safe bag that hands out its items in random order.
    final class Pool<Item>: @unchecked Sendable {
        private let lock = _Lock()
        private var items: [Item] = []

        func put(_ item: Item) {
            lock.withLock { items.append(item) }
        }

        func take(_ random: UInt64) -> Item? {
            lock.withLock { items.isEmpty ? nil : items.remove(at: Int(random % UInt64(items.count))) }
        }

        func drain() -> [Item] {
            lock.withLock {
                defer { items = [] }
                return items
            }
        }
    }

    /// Waits until `count` threads have arrived.
    final class Latch: @unchecked Sendable {
        private let lock = _Lock()
        private var remaining: Int
        private let done = DispatchSemaphoreLike()

        init(_ count: Int) { remaining = count }

        func arrive() {
            let isLast = lock.withLock {
                remaining -= 1
                return remaining == 0
            }
            if isLast { done.signal() }
        }

        func wait() { done.wait() }
    }

    /// Runs `body(thread, random)` on `threads` threads and waits for all of them.
    private func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int, inout SeededGenerator) -> Void) {
        let latch = Latch(threads)
        for thread in 0..<threads {
            Thread.detachNewThreadLike {
                var random = SeededGenerator(seed: UInt64(thread) &* 7919 &+ 1)
                body(thread, &random)
                latch.arrive()
            }
        }
        latch.wait()
    }

    @Test("threads create, cancel and release reactions, scopes and watched computed values while others write")
    func churn() {
        let sources = (0..<6).map { Stored($0, name: "s\($0)") }
        let subscriptions = Pool<Subscription>()
        let computeds = Pool<Computed<Int>>()
        let scopes = Pool<ReactionScope>()
        onThreads(4) { thread, random in
            for step in 0..<1_500 {
                let roll = random.next()
                let a = Int(random.next() % 6)
                let b = Int(random.next() % 6)
                switch roll % 10 {
                case 0, 1:
                    let computed = Computed { sources[a].value &+ sources[b].value }
                    _ = computed.value  // a top-level read: creates and arms the watcher
                    if roll % 3 == 0 { computeds.put(computed) }
                case 2:
                    _ = computeds.take(random.next())  // released here, maybe not where it was made
                    if let computed = computeds.take(random.next()) {
                        _ = computed.value
                        computeds.put(computed)
                    }
                case 3, 4:
                    let computed = computeds.take(random.next())
                    subscriptions.put(
                        observe {
                            // Some runs read nothing, which drops every source of the reaction.
                            if untracked({ sources[a].value }) % 4 == 1 { return }
                            if sources[a].value % 2 == 0 { _ = sources[b].value }
                            if let computed { _ = computed.value }
                            if sources[a].value % 3 == 0 {
                                _ = observe { _ = sources[b].value &+ sources[a].value }
                            }
                        })
                case 5:
                    if let subscription = subscriptions.take(random.next()), roll % 2 == 0 { subscription.cancel() }
                case 6:
                    let scope = ReactionScope()
                    scope.run { _ = observe { _ = sources[a].value } }
                    scopes.put(scope)
                    if let old = scopes.take(random.next()), roll % 2 == 0 { old.cancel() }
                case 7:
                    batch {
                        sources[a].value = step
                        sources[(a + 1) % 6].value = -step
                        sources[a].value = sources[a].value + 1
                    }
                default:
                    sources[a].value = step &* 31 &+ thread
                }
            }
        }
        _ = subscriptions.drain()
        _ = computeds.drain()
        for scope in scopes.drain() { scope.cancel() }
        for source in sources { #expect(source.observerCountForTesting == 0) }
    }

    @Test("reactions that write and cancel each other across threads")
    func crossCancel() {
        let a = Stored(0)
        let b = Stored(0)
        let subscriptions = Pool<Subscription>()
        onThreads(4) { thread, random in
            for step in 0..<2_000 {
                switch random.next() % 4 {
                case 0:
                    subscriptions.put(
                        observe {
                            let value = a.value
                            if value % 5 == 0 { b.value = value }  // queued after the round
                            _ = b.value
                            if value % 7 == 0, let other = subscriptions.take(UInt64(value)) { other.cancel() }
                        })
                case 1:
                    _ = subscriptions.take(random.next())
                default:
                    a.value = step &+ thread
                }
            }
        }
        _ = subscriptions.drain()
        #expect(a.observerCountForTesting == 0)
        #expect(b.observerCountForTesting == 0)
    }
}
