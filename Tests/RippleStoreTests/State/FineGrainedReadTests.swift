import RippleStore
import Testing

/// Issue 10 item 4: reading `store.state.count` tracks `count` only.
@Suite("Fine-grained reads through store.state")
struct FineGrainedReadTests {
    @Test("a Computed reading store.state.count does not re-run on a name-only commit")
    func computedTracksOneKeyPath() {
        let store = TDStore(initialState: TDState())
        let runs = TDCounter()
        let count = Computed { () -> Int in
            runs.increment()
            return store.state.count
        }
        #expect(count.value == 0)
        #expect(runs.value == 1)

        store.rename("Ada")
        #expect(count.value == 0)
        #expect(runs.value == 1, "a commit that changes only name re-ran a reader of count")

        store.commit {
            $0.profile.first = "x"; $0.a = 3
        }
        #expect(count.value == 0)
        #expect(runs.value == 1)

        store.increment()
        #expect(count.value == 1)
        #expect(runs.value == 2)
    }

    @Test("an observe reading store.state.count does not re-run on a name-only commit")
    func observeTracksOneKeyPath() {
        let store = TDStore(initialState: TDState())
        let runs = TDCounter()
        let seen = TDLog<Int>()
        let subscription = observe {
            runs.increment()
            seen.append(store.state.count)
        }
        #expect(runs.value == 1)

        store.rename("Ada")
        store.rename("Grace")
        #expect(runs.value == 1, "a commit that changes only name re-ran a reader of count")

        store.increment()
        store.rename("Linus")
        store.increment()
        #expect(runs.value == 3)
        #expect(seen.all == [0, 1, 2])
        subscription.cancel()
    }

    @Test("a reader of two key paths runs for either, not for a third")
    func observeTracksTheKeyPathsItRead() {
        let store = TDStore(initialState: TDState())
        let titles = TDLog<String>()
        let subscription = observe { titles.append("\(store.state.name) (\(store.state.count))") }
        store.commit { $0.a = 1 }
        store.rename("Ada")
        store.commit { $0.b = 1 }
        store.increment()
        #expect(titles.all == [" (0)", "Ada (0)", "Ada (1)"])
        subscription.cancel()
    }

    @Test("a reader that stops reading a key path stops depending on it")
    func dependenciesFollowTheLastRun() {
        let store = TDStore(initialState: TDState())
        let runs = TDCounter()
        let subscription = observe {
            runs.increment()
            if store.state.flag { _ = store.state.a } else { _ = store.state.b }
        }
        store.commit { $0.a = 1 }
        #expect(runs.value == 1)
        store.commit { $0.b = 1 }
        #expect(runs.value == 2)
        store.commit { $0.flag = true }
        #expect(runs.value == 3)
        store.commit { $0.b = 2 }
        #expect(runs.value == 3, "a reader that no longer reads b re-ran for b")
        store.commit { $0.a = 2 }
        #expect(runs.value == 4)
        subscription.cancel()
    }

    @Test("withObservationTracking of store.state.count ignores a name commit and fires on a count commit")
    func observationTrackingTracksOneKeyPath() {
        let store = TDStore(initialState: TDState())
        let fired = TDCounter()
        withObservationTracking {
            _ = store.state.count
        } onChange: {
            fired.increment()
        }
        store.rename("Ada")
        store.commit { $0.profile.last = "Lovelace" }
        #expect(fired.value == 0, "a name-only commit fired an observation of count")
        store.increment()
        #expect(fired.value == 1)
    }

    @Test("withObservationTracking of store.state.count fires on a count commit made first")
    func observationTrackingFiresOnCount() {
        let store = TDStore(initialState: TDState())
        let fired = TDCounter()
        withObservationTracking {
            _ = store.state.count
        } onChange: {
            fired.increment()
        }
        store.increment()
        #expect(fired.value == 1)
    }

    @Test("a non-Equatable member read through store.state tracks every commit (documented)")
    func nonEquatableMemberTracksEveryCommit() {
        let store = TDStore(initialState: TDState())
        let runs = TDCounter()
        let numbers = TDLog<Int>()
        let subscription = observe {
            runs.increment()
            numbers.append(store.state.box.number)
        }
        store.rename("Ada")
        #expect(runs.value == 2, "a non-Equatable member is read from the whole state: every commit re-runs its reader")
        store.commit { $0.box.number = 7 }
        #expect(runs.value == 3)
        #expect(numbers.all == [0, 0, 7])
        // A commit that changes nothing publishes nothing, so it wakes no one.
        store.commit { $0.box.number = 7 }
        #expect(runs.value == 3)
        subscription.cancel()
    }

    @Test("wholeValue tracks every commit")
    func wholeValueTracksEveryCommit() {
        let store = TDStore(initialState: TDState())
        let runs = TDCounter()
        let subscription = observe {
            runs.increment()
            _ = store.state.wholeValue
        }
        store.rename("Ada")
        store.commit { $0.a = 1 }
        #expect(runs.value == 3)
        subscription.cancel()
    }

    @Test("fine-grained readers stay exact under concurrent commits to other key paths")
    func fineGrainedUnderConcurrentCommits() {
        let store = TDStore(initialState: TDState())
        let countRuns = TDCounter()
        let nameRuns = TDCounter()
        let counts = TDLog<Int>()
        let countReader = observe {
            countRuns.increment()
            counts.append(store.state.count)
        }
        let nameReader = observe {
            nameRuns.increment()
            _ = store.state.name
        }
        let perThread = 200
        runOnThreads(2) { thread in
            for i in 0..<perThread {
                if thread == 0 { store.increment() } else { store.rename("n\(i)") }
            }
        }
        #expect(countRuns.value == perThread + 1)
        #expect(nameRuns.value == perThread + 1)
        #expect(counts.all == Array(0...perThread))
        withExtendedLifetime((countReader, nameReader)) {}
    }
}
