import Testing
@testable import Ripple

/// `dependencies(of:)`: what a closure reads, without a `Computed` or a subscription to keep.
@Suite("Dependencies of a closure")
struct DependenciesOfTests {
    @Test("lists what the closure read directly, in order, and what those values derive from")
    func listsDirectAndTransitiveReads() {
        let first = Stored("Ada", name: "first"), last = Stored("Lovelace", name: "last")
        let full = Computed(name: "full") { "\(first.value) \(last.value)" }
        let flag = Stored(true, name: "flag")
        let runs = Counter()
        let read = dependencies {
            runs.increment()
            if flag.value { _ = full.value }
        }
        #expect(runs.value == 1)
        #expect(read.sources.map(\.name) == ["'flag'", "'full'"])
        #expect(Set(read.nodes.dropFirst().map(\.name)) == ["'flag'", "'full'", "'first'", "'last'"])
        #expect(read.root.kind == .reaction)
    }

    @Test("keeps nothing: the closure never runs again, and nothing observes what it read")
    func keepsNothing() {
        let value = Stored(0, name: "value")
        let doubled = Computed(name: "doubled") { value.value * 2 }
        let runs = Counter()
        _ = dependencies {
            runs.increment(); _ = doubled.value
        }
        value.value = 1
        #expect(runs.value == 1)
        #expect(!value.hasObserversForTesting)
        #expect(doubled.dependencies.observers.isEmpty)
    }

    @Test("inside a reaction's body and inside a batch, it runs at once and leaves the caller's tracking alone")
    func insideReactionAndBatch() {
        let a = Stored(0, name: "a"), b = Stored(0, name: "b")
        let outerRuns = Counter()
        let seen = Recorder<[String]>()
        let outer = observe {
            outerRuns.increment()
            _ = a.value
            seen.append(dependencies { _ = b.value }.sources.map(\.name))
        }
        b.value = 1
        #expect(outerRuns.value == 1, "the outer reaction must not depend on what the closure read")
        a.value = 1
        #expect(outerRuns.value == 2)
        #expect(seen.all == [["'b'"], ["'b'"]])
        let inBatch = Cell<[String]>([])
        batch {
            inBatch.value = dependencies {
                _ = a.value; _ = b.value
            }.sources.map(\.name)
        }
        #expect(inBatch.value == ["'a'", "'b'"])
        outer.cancel()
    }

    @Test("a closure that writes what it read runs once, and the snapshot is of that run")
    func writesWhatItRead() {
        let value = Stored(0, name: "value")
        let runs = Counter()
        let read = dependencies {
            runs.increment()
            value.value = value.value + 1
        }
        #expect(runs.value == 1, "the write must not run the closure again")
        #expect(value.value == 1)
        #expect(read.sources.map(\.name) == ["'value'"])
        #expect(!value.hasObserversForTesting)
    }
}
