import Foundation
import RippleStore
import Testing

/// Each store's subscriber copies its `count` into the other store's `mirror`.
private struct XState: Equatable, Sendable {
    var count = 0
    var mirror = 0
}

/// Two stores whose subscribers commit to each other, committed to from two threads: neither
/// waits for the other forever, and each store's subscribers still see every commit once, in
/// version order.
@Suite("Stores that commit to each other")
struct StoreCrossCommitTests {
    @Test("two stores whose subscribers commit to each other, from 2 threads × 2 000 commits: no hang, nothing lost")
    func crossCommitsDoNotDeadlock() {
        let settings = Store<XState, Never>(initialState: XState(), name: "settings")
        let profile = Store<XState, Never>(initialState: XState(), name: "profile")
        let perThread = 2_000
        let versions = (settings: TDLog<UInt64>(), profile: TDLog<UInt64>())
        let a = settings.sinkState(dropsFirst: true) { changes in
            versions.settings.append(changes.version)
            changes.ifChanged(\.count) { count in profile.commit { $0.mirror = count } }
        }
        let b = profile.sinkState(dropsFirst: true) { changes in
            versions.profile.append(changes.version)
            changes.ifChanged(\.count) { count in settings.commit { $0.mirror = count } }
        }
        runOnThreads(2) { thread in
            let store = thread == 0 ? settings : profile
            for _ in 0..<perThread { store.commit { $0.count += 1 } }
        }
        #expect(settings.currentState.count == perThread)
        #expect(profile.currentState.count == perThread)
        #expect(settings.currentState.mirror == perThread, "the last mirrored write was lost")
        #expect(profile.currentState.mirror == perThread, "the last mirrored write was lost")
        // Every version delivered once, in order, to each store's subscriber.
        #expect(versions.settings.all == Array(1...settings.version))
        #expect(versions.profile.all == Array(1...profile.version))
        withExtendedLifetime((a, b)) {}
    }

    @Test("commits made inside each other's mutations, on 2 threads: stops with a message naming both stores")
    func crossCommitsInsideMutationsFail() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let settings = Store<XState, Never>(initialState: XState(), name: "settings")
                let profile = Store<XState, Never>(initialState: XState(), name: "profile")
                let inside = ThreadLatch(2)
                runOnThreads(2) { thread in
                    let (outer, inner) = thread == 0 ? (settings, profile) : (profile, settings)
                    outer.commit { state in
                        state.count += 1
                        inside.arrive()
                        inside.wait()  // both threads are inside their mutation
                        inner.commit { $0.mirror += 1 }
                    }
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("settings") && message.contains("profile"), "\(message)")
        #expect(message.contains("inside the mutation of another store's commit"), "\(message)")
    }
}
