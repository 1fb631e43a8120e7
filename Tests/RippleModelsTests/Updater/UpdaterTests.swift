import Dispatch
import Foundation
@testable import Ripple
import Testing
@testable import RippleModels

@Suite("Updater")
struct UpdaterTests {
    @Test("keepUpToDate runs now and once per change; equal writes are deduplicated")
    func keepUpToDate() {
        let updater = Updater()
        let isLoggedIn = Stored(false)
        let runs = Log<Bool>()
        updater.keepUpToDate { runs.append(isLoggedIn.value) }
        isLoggedIn.value = true
        isLoggedIn.value = true
        isLoggedIn.value = false
        #expect(runs.all == [false, true, false])
    }

    @Test("keepUpToDate(dependencies:) runs on updates of the listed values only")
    func keepUpToDateWithDependencies() {
        let updater = Updater()
        let listed = Stored(0), unlisted = Stored(0)
        let runs = Log<Int>()
        updater.keepUpToDate(dependencies: [listed]) { runs.append(listed.value + unlisted.value) }
        unlisted.value = 10
        listed.value = 1
        #expect(runs.all == [0, 11])
    }

    @Test("onTransition starts with (nil, current), then reports old and new")
    func onTransition() {
        let updater = Updater()
        let value = Stored(1)
        let log = Log<String>()
        updater.onTransition(value) { old, new in log.append("\(old.map(String.init) ?? "nil")→\(new)") }
        value.value = 2
        value.value = 3
        #expect(log.all == ["nil→1", "1→2", "2→3"])
    }

    @Test("releasing the updater stops every callback")
    func deallocStopsCallbacks() {
        var updater: Updater? = Updater()
        weak let weakUpdater = updater
        let value = Stored(0)
        let runs = Log<Int>()
        updater?.keepUpToDate { runs.append(value.value) }
        updater?.onTransition(value) { _, new in runs.append(new * 100) }
        value.value = 1
        updater = nil
        #expect(weakUpdater == nil)
        value.value = 2
        #expect(runs.all == [0, 0, 1, 100])
        #expect(!value.hasObserversForTesting)
    }

    @Test("bind assigns into a plain object and holds it weakly")
    func bindHoldsObjectWeakly() {
        let updater = Updater()
        let title = Stored("a")
        var label: Label? = Label()
        weak let weakLabel = label
        updater.bind(label!, \.text, to: title)
        #expect(label?.text == "a")
        title.value = "b"
        #expect(label?.text == "b")
        label = nil
        #expect(weakLabel == nil)
        title.value = "c"  // nothing to assign into
        #expect(!title.hasObserversForTesting)
    }

    @Test("nothing runs while paused; on resume each reaction runs at most once")
    func pauseAndResume() {
        let updater = Updater()
        let a = Stored(0), b = Stored(0), untouched = Stored(0)
        let runs = Log<String>()
        updater.keepUpToDate { runs.append("a+b \(a.value + b.value)") }
        updater.keepUpToDate { runs.append("untouched \(untouched.value)") }
        runs.removeAll()
        updater.pause()
        #expect(updater.isPaused)
        a.value = 1
        b.value = 2
        a.value = 3
        #expect(runs.all.isEmpty)
        updater.resume()
        #expect(runs.all == ["a+b 5"])
        a.value = 4
        #expect(runs.all == ["a+b 5", "a+b 6"])
    }

    @Test("a transition after a pause reports the aggregate change, and nothing if the value came back")
    func pausedTransitionsAggregate() {
        let updater = Updater()
        let value = Stored("A")
        let log = Log<String>()
        updater.onTransition(value) { old, new in log.append("\(old ?? "nil")→\(new)") }
        updater.pause()
        value.value = "B"
        value.value = "C"
        updater.resume()
        #expect(log.all == ["nil→A", "A→C"])
        updater.pause()
        value.value = "D"
        value.value = "C"
        updater.resume()
        #expect(log.all == ["nil→A", "A→C"])
        value.value = "E"
        #expect(log.all == ["nil→A", "A→C", "C→E"])
    }

    @Test("a reaction added while paused first runs on resume")
    func addedWhilePaused() {
        let updater = Updater()
        updater.pause()
        let runs = Log<Int>()
        updater.keepUpToDate { runs.append(1) }
        #expect(runs.all.isEmpty)
        updater.resume()
        #expect(runs.all == [1])
    }

    @Test("bind and keepUpToDate(dependencies:) skip a value that came back while paused")
    func valueThatCameBackDoesNotRun() {
        let updater = Updater()
        let title = Stored("a")
        let label = Label()
        let assignments = Log<String>()
        let runs = Log<String>()
        updater.bind(
            label, \.text,
            to: title.binding.map { value in
                assignments.append(value); return value
            })
        updater.keepUpToDate(dependencies: [title]) { runs.append(title.value) }
        assignments.removeAll()
        updater.pause()
        title.value = "b"
        title.value = "a"
        updater.resume()
        #expect(runs.all == ["a"])
        #expect(label.text == "a")
        title.value = "c"
        #expect(runs.all == ["a", "c"])
        #expect(label.text == "c")
    }

    @Test("an updater set up inside a reaction keeps its reactions when that reaction re-runs")
    func updaterInsideReaction() {
        let trigger = Stored(0)
        let source = Stored(0)
        let updater = Updater()
        let runs = Log<Int>()
        let once = Log<Bool>()
        let reaction = observe {
            _ = trigger.value
            if once.count == 0 {
                once.append(true)
                updater.keepUpToDate { runs.append(source.value) }
            }
        }
        trigger.value = 1
        source.value = 1
        #expect(runs.all == [0, 1])
        reaction.cancel()
    }
}

/// A review found a change lost for good when `resume()` on one thread raced a write on
/// another: the paused run read the flag untracked (`true`), `resume()` cleared it, and the
/// run's tracked read then saw `false`, depended on a flag that would not change again, and
/// returned without running the body (lost at iteration 120 to 2 476 of 20 000).
@Suite("Updater, resumed while written")
struct UpdaterResumeRaceTests {
    final class Latest: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = 0
        var value: Int {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }

        func increment() { lock.withLock { stored += 1 } }
    }

    @Test("a write made while another thread resumes the updater is never lost")
    func resumeRacingAWrite() {
        let updater = Updater()
        let dependency = Stored(0)
        let latest = Latest()
        updater.keepUpToDate { latest.value = dependency.value }
        let ready = Latest()
        var lost: Int?
        for iteration in 1...5_000 {
            updater.pause()
            ready.value = 0
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                // Both threads start together, so that the write and the resume overlap.
                ready.increment()
                while ready.value < 2 {}
                if thread == 0 { dependency.value = iteration } else { updater.resume() }
            }
            // Both are done, the updater is running: its reaction has seen the write.
            if latest.value != iteration {
                lost = iteration
                break
            }
        }
        #expect(lost == nil, "the write of \(lost ?? 0) never reached the updater, which shows \(latest.value)")
    }
}
