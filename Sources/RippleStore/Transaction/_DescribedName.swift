import Ripple

/// A transaction's name made each time it is read, for a name whose text costs far more than the
/// commit it names and that is rarely read (by a logger, a tracer, or a subscriber that asks):
/// a binding's or an assignee's key path, a main-actor reducer's action.
///
/// Not kept once made: a key path's description costs microseconds where a commit costs a
/// fraction of one, and keeping it would cost every commit a lock and two allocations more for
/// the few whose name is read more than once.
///
/// ```swift
/// let name = _DescribedName.keyPath(prefix: "binding", _AnyKeyPath(keyPath: \State.count))
/// name.text  // "binding \State.count", described now
/// ```
enum _DescribedName: Sendable {
    /// `"\(prefix) \(keyPath)"`: the transaction's only allocation is its extras.
    case keyPath(prefix: String, _AnyKeyPath)
    /// What the function returns.
    case function(@Sendable () -> String)
    /// `"send(\(action))"`, made on the main actor only (see
    /// `Transaction.init(sending:file:line:)`); elsewhere it reads as ``offMainActor``.
    case mainActorAction(_MainActorValue)

    /// What a name to describe on the main actor reads as elsewhere.
    static let offMainActor = "send (an action described on the main actor only)"

    /// The name, described now.
    ///
    /// - Complexity: a key path's description: microseconds (75 for a subscript on Linux).
    var text: String {
        switch self {
        case .keyPath(let prefix, let path): "\(prefix) \(path.keyPath)"
        case .function(let describe): describe()
        case .mainActorAction(let action): _isRunningOnMainActor() ? "send(\(action.value))" : Self.offMainActor
        }
    }
}

/// A value used on the main actor only, whatever its type: `_DescribedName.text` checks the
/// thread before touching it. Not generic: a generic box's metadata is looked up at run time in
/// RippleStore's unspecialized code, on every main-actor `send`.
struct _MainActorValue: @unchecked Sendable {
    let value: Any
}
