extension Store {
    /// Adds `middleware` after the store was created (Verge's `add(middleware:)`): every
    /// commit made after this returns goes through it, after the middleware given to the
    /// initializer and those added before, in order. It stays for the store's life.
    ///
    /// ```swift
    /// store.add(middleware: StoreMiddleware("clamp") { state, _, _ in
    ///     state.count = min(state.count, 99)
    /// })
    /// ```
    ///
    /// A commit already running on another thread may or may not go through it. Like every
    /// middleware, it must not commit to this store.
    ///
    /// There is no result to keep, as in Verge: a `Subscription` would remove the middleware
    /// when released, so Verge's spelling (which drops the result) would remove it at once.
    ///
    /// - Parameter middleware: The step to add.
    /// - Complexity: O(*n*) for *n* steps (the list is copied). Each commit then reads the list
    ///   once, under the store's lock.
    public func add(middleware: StoreMiddleware<State>) {
        _core.addMiddleware(middleware)
    }
}
