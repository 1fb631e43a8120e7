extension ReducerStore {
    /// The state the store was created with (OneWay's `initialState`), with its
    /// ``DerivedFields`` applied. It does not change: ``Store/currentState`` is the state now.
    ///
    /// - Complexity: O(1).
    public var initialState: R.State {
        _core.initialState
    }
}
