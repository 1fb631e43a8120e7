/// A store's state that lists its stored properties, so that a commit reaches only the readers
/// of the properties it changed.
///
/// A store (``Store`` or ``MainActorStore``) of a plain `Equatable` state checks every key-path
/// reader and derived value on every commit: each re-reads its key path and compares. When the state conforms to
/// `StateFields`, the store compares the listed properties (its *fields*) once per commit,
/// and a reader of a key path that starts with a field (`\.items`, `\.items[3]`,
/// `\.profile.name`) is checked only when that field changed. A commit that changes a field
/// nobody reads costs the same with 0 or 10 000 readers of other fields.
///
/// ```swift
/// struct AppState: StateFields {
///     var count = 0
///     var items: [Item] = []
///     var profile = Profile()
///
///     static let stateFields: [StateField<AppState>] = [
///         StateField(\.count), StateField(\.items), StateField(\.profile),
///     ]
/// }
/// ```
///
/// The `@StateFields` macro (in `RippleMacros`) writes the list for you.
///
/// What a field's readers see does not change: a reader still runs only when the value it reads
/// changed, compared with its own `==`. The difference is which readers a commit looks at. A
/// field is compared with its type's `==`: a reader of a key path under a field is checked
/// only when that comparison finds a difference, so a field type whose `==` ignores some of its
/// properties hides changes to them from readers of those properties. A reader of a key path
/// that starts with no listed field (a computed property, the whole state) is checked on every
/// commit, as with a plain state.
///
/// - Complexity: A commit compares each field read by at least one reader (one comparison per
///   such field), then checks only the readers under the fields that changed.
public protocol StateFields: Equatable, Sendable {
    /// The state's stored properties, each compared on its own by a commit.
    ///
    /// List the stored properties readers read through (a property left out is read as part of
    /// the whole state: its readers are checked on every commit). Each field must be listed
    /// once.
    static var stateFields: [StateField<Self>] { get }
}
