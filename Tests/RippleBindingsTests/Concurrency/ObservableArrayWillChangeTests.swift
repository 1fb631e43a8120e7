#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ripple
import RippleBindings
import Testing

/// What `ObservableArray.willChange` is told is the edit that is applied, even while other
/// threads edit the array.
@Suite struct ObservableArrayWillChangeTests {
    /// An edit's preview, as a handler saw it.
    struct Preview: Equatable, Sendable, CustomStringConvertible {
        let old: [Int]
        let new: [Int]
        var description: String { "\(old) → \(new)" }
    }

    @Test("another thread's edit made while willChange runs waits, so the edit told is the edit applied")
    func concurrentEditWaitsForThePreviewedEdit() async {
        let array = ObservableArray<Int>()
        let previews = Locked<[Preview]>([])
        let isFirstCall = Locked(true)
        let otherMayEdit = Gate()
        let otherStarted = Locked(false)
        let otherDone = Locked(false)
        let subscription = array.willChange { old, new in
            previews.mutate { $0.append(Preview(old: old, new: new)) }
            guard
                isFirstCall.mutate({ first in
                    defer { first = false }; return first
                })
            else { return }
            // The first edit is being previewed: let the other thread edit, and go on once its
            // edit went through (what the array did before) or waits for this one.
            otherMayEdit.open()
            var spins = 0
            while !otherDone.value, !(otherStarted.value && otherEditWaits()) {
                sched_yield()
                spins += 1
                if spins > 20_000_000 {
                    Issue.record("the other thread's edit neither finished nor waited")
                    break
                }
            }
        }
        async let first: Void = onNewThread { array.append(1000) }
        async let second: Void = onNewThread {
            otherMayEdit.wait(milliseconds: 10_000)
            otherStarted.value = true
            array.append(2000)
            otherDone.value = true
        }
        _ = await (first, second)
        #expect(previews.value == [Preview(old: [], new: [1000]), Preview(old: [1000], new: [1000, 2000])])
        #expect(array.value == [1000, 2000])
        withExtendedLifetime(subscription) {}
    }

    /// Whether a thread waits for a read-modify-write of a value another thread holds: the
    /// graph's waiters (the lock counts them on every platform).
    private func otherEditWaits() -> Bool {
        _graph.lock.waitersForTesting > 0
    }

    @Test("two threads editing at once: each preview starts from the previous one's result", arguments: 0..<4)
    func previewsChainUnderContention(round: Int) async {
        let array = ObservableArray<Int>()
        let previews = Locked<[Preview]>([])
        let subscription = array.willChange { old, new in previews.mutate { $0.append(Preview(old: old, new: new)) } }
        let edits = 400
        let start = Gate()
        async let a: Void = onNewThread {
            start.wait(milliseconds: 10_000)
            for i in 0..<edits { array.append(i) }
        }
        async let b: Void = onNewThread {
            start.wait(milliseconds: 10_000)
            for i in 0..<edits {
                if i % 3 == 2, !array.value.isEmpty {
                    array.remove(at: 0)
                } else {
                    array.insert(10_000 + i, at: 0)
                }
            }
        }
        start.open()
        _ = await (a, b)
        let seen = previews.value
        #expect(seen.count == 2 * edits)
        var wrong = 0
        var expectedOld: [Int] = []
        for preview in seen {
            if preview.old != expectedOld { wrong += 1 }
            expectedOld = preview.new
        }
        #expect(wrong == 0, "\(wrong) of \(seen.count) previews did not start from the previous edit's result")
        #expect(seen.last?.new == array.value)
        withExtendedLifetime(subscription) {}
    }

    @Test("a willChange handler that edits its own array stops the program with a message")
    func handlerEditingItsArray() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let array = ObservableArray([1], name: "rows")
                let subscription = array.willChange { _, _ in array.append(3) }
                array.append(2)
                withExtendedLifetime(subscription) {}
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "ObservableArray.edit: ObservableArray \"rows\" was edited from inside one of its willChange handlers"))
    }
}
