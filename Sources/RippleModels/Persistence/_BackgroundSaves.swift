import Dispatch
import Foundation
import Ripple

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The default save schedule of ``KeyValueStore``: saves run on a background queue, in the
/// order they were scheduled, and then each store involved is synchronized once.
///
/// Saves still queued when the process calls `exit` run in an `atexit` handler, so a value
/// written just before a normal exit is not lost.
final class _BackgroundSaves: @unchecked Sendable {
    static let shared = _BackgroundSaves()

    private struct Job {
        let save: @Sendable () -> Void
        let store: any KeyValueStore
    }

    /// Guards `jobs`, `isDraining`, `roundsRunning` and `isRegisteredAtExit`; held only for
    /// bookkeeping, never while a save, a store or a report handler runs.
    private let lock = _Lock()
    private var jobs: [Job] = []
    private var isDraining = false
    /// Rounds taken from `jobs` and still running: the exit handler waits for them.
    private var roundsRunning = 0
    private var isRegisteredAtExit = false

    /// Queues `save`, and starts a round on the background queue unless one is pending.
    func schedule(_ save: @escaping @Sendable () -> Void, in store: some KeyValueStore) {
        let (start, register) = lock.withLock { () -> (Bool, Bool) in
            jobs.append(Job(save: save, store: store))
            let register = !isRegisteredAtExit
            isRegisteredAtExit = true
            if isDraining { return (false, register) }
            isDraining = true
            return (true, register)
        }
        if register { atexit { _BackgroundSaves.shared.drain() } }
        if start { DispatchQueue.global(qos: .utility).async { self.drain() } }
    }

    /// Runs every queued save, then synchronizes each store once; repeats until none is left.
    /// Returns once no round runs on any thread either: the exit handler (and a test) waits
    /// for a round the background queue has in progress, its writes to disk and its reports.
    ///
    /// No lock is held while a round runs: a save, a store's `synchronize()` and the report of
    /// a failure may call the app's code.
    func drain() {
        while true {
            let round = lock.withLock { () -> [Job] in
                let round = jobs
                jobs = []
                if round.isEmpty { isDraining = false } else { roundsRunning += 1 }
                return round
            }
            if round.isEmpty { break }
            for job in round { job.save() }
            var synchronized: Set<ObjectIdentifier> = []
            for job in round where synchronized.insert(job.store.identity).inserted {
                job.store.synchronize()
            }
            lock.withLock {
                roundsRunning -= 1
                if roundsRunning == 0 { lock.broadcast() }
            }
        }
        lock.withLock {
            while roundsRunning > 0 { lock.wait() }
        }
    }
}
