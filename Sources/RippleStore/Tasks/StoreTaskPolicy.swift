/// What a store task does when a task with the same key is still running.
public enum StoreTaskPolicy: Sendable {
    /// Cancel the running task and start the new one at once (a search that restarts on every
    /// keystroke).
    case replace
    /// Start the new task when the running one (and those queued before) ended (saves that must
    /// not overlap).
    case enqueue
}
