import Observation

// A reactive graph built on Swift's Observation framework, the way an app would without Ripple:
// every value is an `@Observable` box; a derived value is a box kept up to date by a derivation
// that re-registers `withObservationTracking` after each change; a reaction re-registers in the
// same way. `onChange` fires in the writer's `willSet`, before the new value is stored, so it only
// queues the node; the queue is drained (FIFO) after the write or batch.
//
// Derived values are cached and cut off by `==`, but eager (every derived value is kept up to
// date, read or not) and not glitch-free in general: a node may run more than once per write.

/// A box for one value. The boxes are concrete classes: a generic `@Observable` class builds
/// its `\.value` key path at run time on every access, which would triple the cost.
protocol OValueBox: AnyObject, Observable {
    associatedtype Value: Equatable
    var value: Value { get set }
    init(_ value: Value)
}

@Observable
final class IntBox: OValueBox, @unchecked Sendable {
    var value: Int
    init(_ value: Int) { self.value = value }
}

@Observable
final class IntArrayBox: OValueBox, @unchecked Sendable {
    var value: [Int]
    init(_ value: [Int]) { self.value = value }
}

typealias OInt = OComputed<IntBox>
typealias OIntArray = OComputed<IntArrayBox>

/// The queue of nodes whose tracked reads changed.
final class OScheduler: @unchecked Sendable {
    private var queue: [ONode] = []
    private var head = 0

    func enqueue(_ node: ONode) { queue.append(node) }

    /// Runs every queued node, including those queued while running.
    func flush() {
        while head < queue.count {
            let node = queue[head]
            head += 1
            node.run()
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
    }
}

class ONode: @unchecked Sendable {
    unowned let scheduler: OScheduler
    init(scheduler: OScheduler) { self.scheduler = scheduler }
    func run() {}

    /// Runs `body` tracked; the next change of anything it read queues this node again.
    @inline(__always)
    final func tracked<R>(_ body: () -> R) -> R {
        withObservationTracking(body, onChange: { [unowned self] in self.scheduler.enqueue(self) })
    }
}

/// A derived value: an `@Observable` box written by a tracked derivation when its result changes.
final class OComputed<Box: OValueBox>: ONode, @unchecked Sendable {
    typealias Value = Box.Value
    let box: Box
    private let derive: () -> Value

    init(_ scheduler: OScheduler, _ derive: @escaping () -> Value) {
        self.derive = derive
        box = Box(derive())
        super.init(scheduler: scheduler)
        _ = tracked(derive)
    }

    /// Reading it inside a derivation or reaction tracks it.
    var value: Value { box.value }

    override func run() {
        let next = tracked(derive)
        if next != box.value { box.value = next }
    }
}

/// A reaction: runs now and again after each change of what it read.
final class OEffect: ONode, @unchecked Sendable {
    private let body: () -> Void

    init(_ scheduler: OScheduler, _ body: @escaping () -> Void) {
        self.body = body
        super.init(scheduler: scheduler)
        run()
    }

    override func run() { tracked(body) }
}
