extension ViewStore {
    /// The state the view store was created with (OneWay's `initialState`), with its
    /// ``DerivedFields`` applied. It does not change: ``currentState`` is the state now.
    ///
    /// - Complexity: O(1).
    public var initialState: R.State {
        _reducerStore.initialState
    }
}
