extension BindingHandler {
    /// This handler, with a user's edits reaching the model at most once per `interval`: the
    /// first edit opens a window, and when it closes the latest edit of the window is written,
    /// once. Values from the model are not delayed.
    ///
    /// ```swift
    /// slider.value.bind(volume, .identity.throttle(for: .milliseconds(100)))
    /// ```
    ///
    /// When the binding ends (``TwoWayBindableProperty/unbind()``, or its target is released)
    /// with an edit still waiting, that edit is written at once: a user's edit is never
    /// dropped. Edits reach the model in the order they were taken, and ending the binding
    /// returns only once every edit taken before it is written (waiting, if need be, for a
    /// write its timer began on another thread).
    ///
    /// - Parameters:
    ///   - interval: How long a window lasts.
    ///   - clock: The clock to wait on; a test passes a test clock.
    public func throttle<C: Clock<Duration>>(for interval: Duration, clock: C = ContinuousClock()) -> BindingHandler {
        paced(.throttle, interval: interval, clock: clock)
    }

    /// This handler, with a user's edits reaching the model only once they pause for
    /// `interval`: each edit restarts the wait, and the latest edit is written when it ends.
    /// Values from the model are not delayed.
    ///
    /// ```swift
    /// searchField.text.bind(query, .identity.debounce(for: .milliseconds(300)))
    /// ```
    ///
    /// When the binding ends with an edit still waiting, that edit is written at once; as with
    /// ``throttle(for:clock:)``, edits reach the model in order, and ending the binding
    /// returns once they are written.
    ///
    /// - Parameters:
    ///   - interval: How long the user must pause.
    ///   - clock: The clock to wait on; a test passes a test clock.
    public func debounce<C: Clock<Duration>>(for interval: Duration, clock: C = ContinuousClock()) -> BindingHandler {
        paced(.debounce, interval: interval, clock: clock)
    }

    private func paced<C: Clock<Duration>>(_ mode: _PacerState<PropertyValue>.Mode, interval: Duration, clock: C)
        -> BindingHandler
    {
        guard interval >= .zero else {
            _bindingsFailure("BindingHandler.\(mode)(for: \(interval)): the interval cannot be negative.")
        }
        var push: _MakePush<DataValue, PropertyValue>?
        if let make = makePush {
            let sleep: @Sendable (Duration) async throws -> Void = { try await clock.sleep(for: $0) }
            push = { write in
                let inner = make(write)
                let pacer = _Pacer<PropertyValue>(mode: mode, interval: interval, sleep: sleep) { inner.send($0) }
                return _Push(then: inner, flush: { pacer.flush() }) { pacer.send($0) }
            }
        }
        return BindingHandler(forward: forward, makePush: push)
    }
}
