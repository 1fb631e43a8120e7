import Ripple
import RippleBindings
import RippleModels
import Testing

/// A value behind a lock, for tests' closures.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLockLike()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.with { stored } }
        set { lock.with { stored = newValue } }
    }
    func mutate<R>(_ body: (inout Value) -> R) -> R { lock.with { body(&stored) } }
}

/// A tiny lock for the tests (they must not use Ripple's internals).
final class NSLockLike: @unchecked Sendable {
    private var flag = Mutex()
    func with<R>(_ body: () -> R) -> R {
        flag.lock()
        defer { flag.unlock() }
        return body()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Mutex {
    private let pointer: UnsafeMutablePointer<pthread_mutex_t> = {
        let pointer = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(pointer, nil)
        return pointer
    }()
    func lock() { pthread_mutex_lock(pointer) }
    func unlock() { pthread_mutex_unlock(pointer) }
}

/// A label: a text property, and a count of how often the binding set it.
final class FakeLabel: @unchecked Sendable {
    private let state = Locked<(text: String?, sets: Int)>((nil, 0))
    var text: String? {
        get { state.value.text }
        set { state.mutate { $0 = (newValue, $0.sets + 1) } }
    }
    var sets: Int { state.value.sets }
}

/// A text field the user types into; `reportsProgrammaticChanges` makes it call its change
/// handler when the program sets it too (as some controls do).
final class FakeField: @unchecked Sendable {
    private let state = Locked<(text: String, sets: Int)>(("", 0))
    let reportsProgrammaticChanges: Bool
    var onChange: (@Sendable () -> Void)?

    init(reportsProgrammaticChanges: Bool = false) {
        self.reportsProgrammaticChanges = reportsProgrammaticChanges
    }

    var text: String { state.value.text }
    var sets: Int { state.value.sets }

    /// The program sets the text (the binding).
    func set(_ text: String) {
        state.mutate { $0 = (text, $0.sets + 1) }
        if reportsProgrammaticChanges { onChange?() }
    }

    /// The user types.
    func type(_ text: String) {
        state.mutate { $0.text = text }
        onChange?()
    }
}

/// A two-way property over `field`'s text, told of the user's edits as the adapters do.
func editableProperty(of field: FakeField) -> TwoWayBindableProperty<String> {
    let property = TwoWayBindableProperty<String>(field, get: { $0.text }, set: { $0.set($1) })
    field.onChange = { [weak property] in property?.userDidEdit() }
    return property
}

/// A field whose editable property is bound to `model` through `handler`, and the binding's
/// subscription.
func bound(
    _ handler: BindingHandler<String, String> = .identity,
    to model: Stored<String>
) -> (field: FakeField, property: TwoWayBindableProperty<String>, subscription: Subscription) {
    let field = FakeField()
    let property = editableProperty(of: field)
    let subscription = property.bind(model, handler)
    return (field, property, subscription)
}

/// A scheduler whose jobs wait until the test runs them.
final class ManualScheduler: @unchecked Sendable {
    private let jobs = Locked<[@Sendable () -> Void]>([])
    var scheduler: BindingScheduler { BindingScheduler { [jobs] job in jobs.mutate { $0.append(job) } } }
    var pendingCount: Int { jobs.value.count }
    func runAll() {
        while true {
            let next = jobs.mutate { $0.isEmpty ? nil : $0.removeFirst() }
            guard let next else { return }
            next()
        }
    }
}

/// A scheduler like the main actor's, whose jobs wait until the test runs them: a value sent
/// while the test runs them (from inside a job) is applied at once, as one sent on the main
/// actor is.
final class ManualExecutor: @unchecked Sendable {
    private let jobs = Locked<[@Sendable () -> Void]>([])
    private let isRunning = Locked(false)
    var scheduler: BindingScheduler {
        BindingScheduler(
            enqueue: { [jobs] job in jobs.mutate { $0.append(job) } }, runsAtOnce: { [isRunning] in isRunning.value })
    }
    func runAll() {
        isRunning.value = true
        defer { isRunning.value = false }
        while true {
            let next = jobs.mutate { $0.isEmpty ? nil : $0.removeFirst() }
            guard let next else { return }
            next()
        }
    }
}

/// Yields until `condition` holds, at most `limit` times (no sleeping, no wall time).
func eventually(_ limit: Int = 10_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
