import Ripple

/// Where a binding applies values to its target: at once, on the main actor, or on an actor
/// or executor of your choice.
///
/// A binding's reaction runs on the thread that changed the model. The scheduler decides
/// where the value then reaches the control:
///
/// - ``immediate``: on that thread, inside the reaction (for targets that are not tied to a
///   thread, and for tests);
/// - ``mainActor``: on the main actor; *at once* when the change was made there (no hop, so a
///   control shows the new value before the code that made the change returns), otherwise
///   from a main-actor task;
/// - ``on(_:)-(Actor)``: on an actor, from a task; ``on(_:)-(TaskExecutor)``: on a task executor;
/// - ``init(_:)``: through your own function (a dispatch queue, a run loop).
///
/// ```swift
/// let title = BindableProperty(label, on: .mainActor) { label, text in
///     MainActor.assumeIsolated { label.text = text }
/// }
/// ```
///
/// When values arrive faster than the scheduler runs them, a binding applies only the newest
/// one: a control shows the latest state, never an older value after a newer one. A binding
/// has at most one job on its scheduler at a time, and that job applies values one after the
/// other, so even a scheduler that runs jobs concurrently never applies two at once.
public struct BindingScheduler: Sendable {
    let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void
    let runsAtOnce: @Sendable () -> Bool

    /// A scheduler that hands each job to `schedule` (a dispatch queue, a run loop).
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "render")
    /// let onQueue = BindingScheduler { job in queue.async(execute: job) }
    /// ```
    ///
    /// - Parameter schedule: Runs a job later, on the scheduler's thread or executor.
    public init(_ schedule: @escaping @Sendable (_ job: @escaping @Sendable () -> Void) -> Void) {
        self.init(enqueue: schedule, runsAtOnce: { false })
    }

    /// Package: a scheduler that applies a value at once while `runsAtOnce` says the caller
    /// is where the jobs run (as `mainActor` does on the main actor), and otherwise hands it to
    /// `enqueue`. Tests use it to play an executor step by step.
    package init(
        enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        runsAtOnce: @escaping @Sendable () -> Bool
    ) {
        self.enqueue = enqueue
        self.runsAtOnce = runsAtOnce
    }

    /// Applies values at once, on the thread whose change produced them.
    public static var immediate: BindingScheduler {
        BindingScheduler(enqueue: { $0() }, runsAtOnce: { true })
    }

    /// Applies values on the main actor: at once when the change was made on it, otherwise
    /// from a main-actor task.
    ///
    /// This is the scheduler of every UIKit and AppKit binding.
    public static var mainActor: BindingScheduler {
        BindingScheduler(
            enqueue: { job in Task { @MainActor in job() } },
            runsAtOnce: { _isRunningOnMainActor() }
        )
    }

    /// Applies values on `actor` (and so on its executor, when it has a custom one), from a
    /// task.
    ///
    /// ```swift
    /// actor Renderer { var lines: [String] = [] }
    /// let renderer = Renderer()
    /// let lines = BindableProperty(on: .on(renderer)) { lines in … }
    /// ```
    public static func on(_ actor: some Actor) -> BindingScheduler {
        BindingScheduler(
            enqueue: { job in Task { await _run(job, on: actor) } },
            runsAtOnce: { false }
        )
    }

    /// Applies values on `executor`, from a task that prefers it.
    ///
    /// The executor may run jobs concurrently: a binding still applies its values one after
    /// the other, the newest last.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public static func on(_ executor: any TaskExecutor) -> BindingScheduler {
        BindingScheduler(
            enqueue: { job in Task(executorPreference: executor) { job() } },
            runsAtOnce: { false }
        )
    }

    /// Runs `job` at once when this scheduler allows it on the calling thread, otherwise
    /// later, on the scheduler.
    func schedule(_ job: @escaping @Sendable () -> Void) {
        if runsAtOnce() { job() } else { enqueue(job) }
    }
}

private func _run<A: Actor>(_ job: @Sendable () -> Void, on actor: isolated A) {
    job()
}
