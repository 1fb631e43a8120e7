/// Main-actor computed values derived from an object they hold weakly: derived values
/// stored in the class they derive from.
extension MainActorComputed {
    /// Creates a computed value derived from `owner`, which it holds weakly, counting every
    /// re-evaluation as a change.
    ///
    /// The same as the `Equatable` form of `MainActorComputed(owner:_:)`, for values that are
    /// not `Equatable`.
    ///
    /// - Parameters:
    ///   - owner: The object the value is derived from, passed to `derive`; held weakly.
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation, run on the main actor with the owner. Reads inside it are
    ///     tracked.
    public nonisolated convenience init<Owner: AnyObject>(
        owner: Owner,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @MainActor (Owner) -> Value
    ) {
        self.init(
            node: _OwnedDerivation.mainActorNode(
                owner: owner,
                isEqual: nil,
                origin: _Origin(name: name, fileID: file, line: line),
                derive
            ))
    }
}

extension MainActorComputed where Value: Equatable {
    /// Creates a computed value derived from `owner`, which it holds weakly, cut off by `==`.
    ///
    /// Use it for a derived value stored in the class it derives from: the derivation
    /// receives the owner as its argument instead of capturing `self`, so the value does not
    /// keep its owner alive, and the class is freed when its last owner lets it go.
    ///
    /// ```swift
    /// @MainActor final class TodoList: ObservableModel {
    ///     @Observed var items: [Item] = []
    ///     lazy var remaining = MainActorComputed(owner: self) { list in
    ///         list.items.count { !$0.isDone }
    ///     }
    /// }
    /// ```
    ///
    /// Once the owner is gone, the value keeps the last value it derived and no longer
    /// depends on anything: it never changes again. Reading it for the first time after the
    /// owner is gone stops the program with a message naming it: there is no value to keep.
    ///
    /// - Parameters:
    ///   - owner: The object the value is derived from, passed to `derive`; held weakly.
    ///   - name: A name used in diagnostics (cycle messages).
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - derive: The derivation, run on the main actor with the owner. Reads inside it are
    ///     tracked.
    public nonisolated convenience init<Owner: AnyObject>(
        owner: Owner,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ derive: @escaping @MainActor (Owner) -> Value
    ) {
        self.init(
            node: _OwnedDerivation.mainActorNode(
                owner: owner,
                isEqual: { $0 == $1 },
                origin: _Origin(name: name, fileID: file, line: line),
                derive
            ))
    }
}
