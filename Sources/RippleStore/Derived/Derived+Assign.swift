extension Derived {
    /// Calls `assignee` with the current value, then with every change, on the committing
    /// thread (Verge's `assign(to:)`): the same as ``sinkValue(dropsFirst:file:line:_:)``.
    ///
    /// ```swift
    /// let subscription = counter.derived(\.count).assign(to: summary.assignee(\.count))
    /// ```
    ///
    /// - Parameters:
    ///   - file: The file that subscribes.
    ///   - line: The line that subscribes.
    ///   - assignee: Receives each change, usually a store's `assignee(_:)`.
    /// - Returns: A subscription that stops the assignment when cancelled or released. It keeps
    ///   this derived value alive, not the stores.
    public func assign(
        file: StaticString = #fileID,
        line: UInt = #line,
        to assignee: @escaping @Sendable (Changes<Value>) -> Void
    ) -> Subscription {
        sinkValue(file: file, line: line, assignee)
    }
}
