import Ripple

extension ObservableValue where Self: Sendable, Value: Collection {
    /// The collection, as a value that also changes when what `select` reads from any of its
    /// elements changes (Yoyo's `MultilevelCollectionProperty`).
    ///
    /// Elements that join the collection are followed from then on, and elements that leave
    /// it are no longer followed.
    ///
    /// ```swift
    /// let todos = Stored<[Todo]>([])                       // Todo has `let isDone: Stored<Bool>`
    /// let list = todos.observingElements { $0.isDone.value }  // or observingElements(\.isDone)
    /// let observer = list.didUpdate { render($0) }         // on add, remove, or any isDone
    /// ```
    ///
    /// - Parameter select: Reads what to follow in one element; its reads are tracked.
    /// - Complexity: Each change re-reads `select` for every element: O(*n*).
    public func observingElements<Part>(_ select: @escaping @Sendable (Value.Element) -> Part) -> Computed<Value> {
        observingElements(equals: nil, select)
    }

    /// ``ObservableValue/observingElements(_:)-2d4ti`` with an equality for the collection
    /// (Yoyo's `changePredicate:`): a change reaches the readers only when `isEqual` says the
    /// collection changed.
    ///
    /// ```swift
    /// let list = todos.observingElements(equals: { $0.count == $1.count }) { $0.isDone.value }
    /// ```
    ///
    /// - Parameters:
    ///   - isEqual: When two collections count as the same; `nil` (the default of the other
    ///     forms): every change of the collection or of an element notifies.
    ///   - select: Reads what to follow in one element; its reads are tracked.
    /// - Complexity: Each change re-reads `select` for every element: O(*n*).
    public func observingElements<Part>(
        equals isEqual: (@Sendable (Value, Value) -> Bool)?,
        _ select: @escaping @Sendable (Value.Element) -> Part
    ) -> Computed<Value> {
        Computed(name: "observingElements", equals: isEqual) {
            let elements = self.value
            for element in elements { _ = select(element) }
            return elements
        }
    }

    /// The collection, as a value that also changes when the property at `path` of any
    /// element changes: for elements that are ``ObservableModel``s, `path` names an
    /// `@Observed` property.
    ///
    /// ```swift
    /// final class Todo: SendableModel, @unchecked Sendable { @Observed var isDone = false }
    /// let list = todos.observingElements(\.isDone)
    /// ```
    ///
    /// - Complexity: Each change reads `path` for every element: O(*n*).
    public func observingElements<Part>(_ path: any KeyPath<Value.Element, Part> & Sendable) -> Computed<Value> {
        observingElements { $0[keyPath: path] }
    }

    /// The collection, as a value that also changes when the reactive value at `path` of any
    /// element changes: for elements that hold their state in nodes, such as
    /// `let isDone: Stored<Bool>`.
    ///
    /// ```swift
    /// let list = todos.observingElements(\.isDone)           // isDone is a Stored<Bool>
    /// ```
    ///
    /// - Complexity: Each change reads `path` for every element: O(*n*).
    public func observingElements<Node: ObservableValue & Sendable>(
        _ path: any KeyPath<Value.Element, Node> & Sendable
    ) -> Computed<Value> {
        observingElements { $0[keyPath: path].value }
    }
}
