import Dispatch
import Foundation
import Ripple
import RippleCombine
import RippleModels
import Testing

/// A review found `assign(to:)` with a main-actor binding stopping the program (SIGILL in the
/// sink's main-actor isolation check) for a value produced on another thread, which its
/// documentation says is queued to the main queue.
@MainActor
@Suite("assign(to:) a main-actor binding")
struct AssignToMainActorBindingTests {
    final class Subject: @unchecked Sendable {
        let subject = PassthroughSubject<Int, Never>()
    }

    @MainActor
    final class Written {
        var values: [Int] = []
    }

    /// Sends `value` from a new thread and waits for the send, without letting the main queue
    /// run meanwhile (a synchronous wait, where an `await` would let it run the queued write).
    private nonisolated static func sendFromAnotherThread(_ value: Int, to source: Subject) {
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            source.subject.send(value)
            sent.signal()
        }
        sent.wait()
    }

    /// Runs the main queue's blocks queued before this call.
    private func drainMainQueue() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { done.resume() }
        }
    }

    @Test("a value produced on another thread is written on the main queue")
    func valueFromAnotherThread() async {
        let written = Written()
        let binding = MainActorValueBinding<Int>(get: { written.values.last ?? 0 }, set: { written.values.append($0) })
        let source = Subject()
        let cancellable = source.subject.assign(to: binding)
        await Task.detached { source.subject.send(1) }.value
        await drainMainQueue()
        #expect(written.values == [1])
        withExtendedLifetime(cancellable) {}
    }

    @Test("a value queued before the cancellable is cancelled is not written")
    func queuedValueAfterCancel() async {
        let written = Written()
        let binding = MainActorValueBinding<Int>(get: { written.values.last ?? 0 }, set: { written.values.append($0) })
        let source = Subject()
        let cancellable = source.subject.assign(to: binding)
        source.subject.send(1)
        Self.sendFromAnotherThread(2, to: source)
        cancellable.cancel()
        await drainMainQueue()
        #expect(written.values == [1])
    }
}
