/// What an `accumulate { }` subscriber's closure receives (`$0`): it makes the parts that run
/// when a value changed (Verge's `AccumulationBuilder`).
///
/// ```swift
/// let subscription = store.accumulate {
///     $0.ifChanged(\.name).do { name in print("name:", name) }
///     $0.ifChanged(\.count).dropFirst().do { count in print("count changed to", count) }
/// }
/// ```
public struct AccumulationBuilder<State> {
    /// A part that runs its `do(_:)` handler with the value `selector`
    /// picks when it differs from the value it picked in the previous delivery (always in the
    /// first one).
    ///
    /// - Parameter selector: Picks the value to watch; a key path works (`\.name`).
    /// - Returns: The part; give it a handler with `do(_:)`.
    public func ifChanged<Value: Equatable>(_ selector: @escaping (State) -> Value) -> AccumulationIfChanged<
        State, Value
    > {
        AccumulationIfChanged(selector: selector)
    }
}
