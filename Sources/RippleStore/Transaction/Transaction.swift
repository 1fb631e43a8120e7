/// What a commit tells about itself: its name, where it was made, and typed metadata.
///
/// Every commit carries one. The mutation may fill it in (the `commit { state, transaction in }`
/// form), middleware may rewrite it, and subscribers (``Changes/transaction``) and loggers
/// read it.
///
/// ```swift
/// store.sinkState { changes in
///     if changes.transaction[Origin.self] == "pull to refresh" { endRefreshing() }
/// }
/// ```
public struct Transaction: Sendable, CustomStringConvertible {
    /// The name given to `commit`, or `nil`.
    ///
    /// The commits a store makes for you name what made them: a binding's write
    /// (`"binding \.draft"`) and an assignee's (`"assign \.count"`) the key path they write, a
    /// `MainActorReducerStore`'s the action (`"send(increment)"`). That name is made each time
    /// this property is read, not with the commit: describing a key path costs microseconds
    /// (tens of them for a subscript, on Linux), many times the commit itself. A
    /// `MainActorReducerStore`'s action is described on the main actor only (its action may not
    /// be `Sendable`); read elsewhere, the name says so. Setting a name replaces it.
    ///
    /// - Complexity: O(1) for a name given to `commit`; a description for one made when read.
    public var name: String? {
        get {
            if let givenName { return givenName }
            return extras?.describedName?.text
        }
        set {
            givenName = newValue
            if let extras, extras.describedName != nil { self.extras = extras.droppingDescribedName() }
        }
    }
    /// The name given to the initializer or set since.
    private var givenName: String?
    /// The file that made the commit.
    public let file: StaticString
    /// The line that made the commit.
    public let line: UInt
    /// The action a reducer store reduced in this commit (``ReducerStore/send(_:file:line:)``),
    /// or `nil` for a commit made with `commit`.
    ///
    /// ```swift
    /// store.sinkState { changes in
    ///     if case .loaded? = changes.transaction.action as? Counter.Action { hideSpinner() }
    /// }
    /// ```
    ///
    /// Stored inline: a reducer's `send` sets it on every action, and a reference holding it
    /// cost an allocation and its release per send (about 460 of a `send`'s 3 670 instructions).
    public var action: (any Sendable)?
    /// The keyed values, in one reference that most commits leave `nil`: an optional
    /// dictionary inline made every commit cost more (26 instructions with no subscriber, as many
    /// with ten `sinkState` subscribers, `count-instructions.sh --store`).
    private var extras: _TransactionExtras?

    /// Creates a transaction; stores create one for each commit.
    ///
    /// - Parameters:
    ///   - name: The commit's name.
    ///   - file: The file that made it.
    ///   - line: The line that made it.
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        givenName = name
        self.file = file
        self.line = line
    }

    /// A reducer's transaction for `action`, made in place: assigning ``action`` after
    /// `init(name:file:line:)` copied and destroyed the transaction through its value witnesses,
    /// about 300 of a trivial `send`'s 3 100 instructions.
    init(action: any Sendable, file: StaticString, line: UInt) {
        self.file = file
        self.line = line
        self.action = action
    }

    /// A transaction named `describe()`, called each time ``name`` is read (see
    /// `_DescribedName`): for a name whose text is costly to make and rarely read.
    init(describedBy describe: @escaping @Sendable () -> String, file: StaticString, line: UInt) {
        self.file = file
        self.line = line
        extras = _TransactionExtras(values: [:], describedName: .function(describe))
    }

    /// A transaction named `"send(\(action))"` when ``name`` is read on the main actor: a
    /// main-actor reducer's action, which may not be `Sendable` (so it is not kept in
    /// ``action``). Describing an action reflects on it: about 7 400 instructions, where the
    /// rest of a `send` costs 8 600. Read elsewhere, the name is `_DescribedName.offMainActor`.
    /// The transaction holds the action, as a reducer store's transaction holds its `Sendable`
    /// action in ``action``: in one allocation, its extras, with the action in an existential
    /// (a box of its own only for an action larger than three words). A generic box and two
    /// closures made this 1 100 of a main-actor `send`'s 5 450 instructions, 980 of them
    /// looking up the box's generic metadata three times.
    init<Action>(sending action: Action, file: StaticString, line: UInt) {
        self.file = file
        self.line = line
        extras = _TransactionExtras(values: [:], describedName: .mainActorAction(_MainActorValue(value: action)))
    }

    /// A transaction named `"\(prefix) \(keyPath)"`, described each time ``name`` is read: a
    /// binding's or an assignee's commit.
    @usableFromInline
    init(_ prefix: String, describing keyPath: AnyKeyPath, file: StaticString, line: UInt) {
        self.file = file
        self.line = line
        extras = _TransactionExtras(values: [:], describedName: .keyPath(prefix: prefix, _AnyKeyPath(keyPath: keyPath)))
    }

    /// What is left in a commit's place once its transaction moved into its snapshot: nothing
    /// to copy or release.
    static var _moved: Transaction { Transaction(name: nil, file: "", line: 0) }

    /// The value stored for `key`, or the key's default value.
    ///
    /// - Complexity: O(1) on average.
    public subscript<Key: TransactionKey>(key: Key.Type) -> Key.Value {
        get {
            // Looked up first, then cast: `as? Key.Value ?? default` would give `.some(nil)`,
            // not the default, for a key whose value is optional and was never set.
            guard let value = extras?.values[ObjectIdentifier(key)] else { return Key.defaultValue }
            return value as? Key.Value ?? Key.defaultValue
        }
        set {
            var values = extras?.values ?? [:]
            values[ObjectIdentifier(key)] = newValue
            extras = _TransactionExtras(values: values, describedName: extras?.describedName)
        }
    }

    /// The name, or the place the commit was made when it has none.
    public var description: String {
        if let name { return name }
        if let action { return "send(\(action))" }
        return "commit at \(file):\(line)"
    }
}

/// A transaction's keyed values and its name to describe, replaced, never changed, when one is
/// set (the transaction stays a value, one word wide for them).
final class _TransactionExtras: Sendable {
    let values: [ObjectIdentifier: any Sendable]
    /// The name, when it is described on each read (see `_DescribedName`).
    let describedName: _DescribedName?

    init(values: [ObjectIdentifier: any Sendable], describedName: _DescribedName? = nil) {
        self.values = values
        self.describedName = describedName
    }

    /// These extras without the name to describe (a name was set): `nil` when nothing is left.
    func droppingDescribedName() -> _TransactionExtras? {
        values.isEmpty ? nil : _TransactionExtras(values: values)
    }
}
