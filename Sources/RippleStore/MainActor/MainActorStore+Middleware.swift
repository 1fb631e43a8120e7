extension MainActorStore {
    /// Adds `middleware` to the store (Verge's `add(middleware:)`): every commit made after this
    /// returns goes through it, after the middleware added before, in order. It stays for the
    /// store's life.
    ///
    /// ```swift
    /// store.add(middleware: StoreMiddleware("trim") { state, _, _ in
    ///     state.draft = String(state.draft.prefix(280))
    /// })
    /// ```
    ///
    /// It runs after the mutation, on the main actor, and must not commit to this store. There
    /// is no result to keep, as in Verge (a `Subscription` would remove it when released).
    ///
    /// - Parameter middleware: The step to add.
    /// - Complexity: O(1) amortized.
    public func add(middleware: StoreMiddleware<State>) {
        _core.middleware.append(middleware)
    }
}
