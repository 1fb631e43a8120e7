/// A typed key for a value a commit carries in its ``Transaction``.
///
/// Declare a key for each piece of metadata your commits carry; loggers and subscribers read
/// it back with the same key.
///
/// ```swift
/// enum Origin: TransactionKey {
///     static let defaultValue = "app"
/// }
///
/// store.commit("refresh") { state, transaction in
///     transaction[Origin.self] = "pull to refresh"
///     state.isLoading = true
/// }
/// ```
public protocol TransactionKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value a transaction that never set this key reports.
    static var defaultValue: Value { get }
}
