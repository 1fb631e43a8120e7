import RippleStore

/// Lists a store state's stored properties as its fields: conforms the struct to RippleStore's
/// `StateFields`, so that a commit reaches only the readers of the properties it changed.
///
/// ```swift
/// import RippleMacros
/// import RippleStore
///
/// @StateFields
/// struct AppState: Equatable, Sendable {
///     var count = 0
///     var items: [Item] = []
///     let id: UUID
///     var total: Int { items.count }        // computed: not a field
///     static var shared = 0                 // static: not a field
///     @RippleIgnored var scratch = 0        // not a field
/// }
///
/// AppState.stateFields.count   // 3: count, items, id
/// ```
///
/// The macro adds, in an extension, the conformance and the list, which is what you would
/// write by hand:
///
/// ```swift
/// extension AppState: nonisolated RippleStore.StateFields {
///     nonisolated static let stateFields: [RippleStore.StateField<AppState>] = [
///         RippleStore.StateField(\.count), RippleStore.StateField(\.items), RippleStore.StateField(\.id),
///     ]
/// }
/// ```
///
/// - **Listed:** every stored instance property, `var` or `let`, in declaration order, each
///   binding of a declaration that has several (`var x = 0, y = 0`), and stored properties
///   with `willSet` or `didSet`. A property wrapped in `@CopyOnWrite` is listed as its value;
///   one wrapped in `@Edge` or `@Triggered` as its projected value (`\.$books`), which changes
///   with every mutation or assignment.
/// - **Left out:** computed properties, `static` and `class` ones, `lazy` ones, those marked
///   ``RippleIgnored()``, deprecated ones, those with any other attribute (a property wrapper
///   such as `@Ignored`, whose wrapped value may not be comparable), and those declared inside
///   `#if`.
///   A reader of a property left out is checked on every commit, as with a plain state.
/// - **Conformances.** `StateFields` refines `Equatable` and `Sendable`, which the macro does not
///   add: declare them on the struct, as for any store state. A listed property whose type is
///   not `Equatable` is refused by the compiler where the list names it ("initializer
///   'init(_:)' requires that 'Cursor' conform to 'Equatable'"); mark it ``RippleIgnored()``
///   when the struct's own `==` leaves it out. A struct that already declares `StateFields`
///   gets only the list.
/// - **Isolation.** The conformance and the list are `nonisolated`. In a module that is
///   main-actor isolated by default (Xcode 26's app targets), a struct whose declaration
///   conforms to a `Sendable` protocol is not put on the main actor, and the macro's conformance
///   counts as declared with the struct: the state, its `Equatable` conformance included, is
///   nonisolated, so a `Store` (which requires conformances usable from any thread) takes it
///   with nothing written about isolation, as does a `MainActorStore`. Its methods are then
///   nonisolated too, as any `Store` state's are.
/// - **Access.** The list is as visible as the struct: `public` for a public struct, `package`
///   for a package one.
///
/// The file that declares the state imports `RippleStore` (the generated code names it);
/// `import RippleMacros` does not re-export it. The macro applies to structs only: for another
/// type, conform to `StateFields` and write the list yourself. A generic struct, or one nested
/// in a generic type, gets a computed list (Swift has no static stored properties in generic
/// types); a struct declared in an extension of a generic type cannot be told apart by the
/// macro, and the compiler refuses its `static let`: write its list yourself.
///
/// - Complexity: The list is built once, on first use (on each read for a generic struct); a
///   commit then compares each field read by at least one reader.
@attached(extension, conformances: RippleStore.StateFields, names: named(stateFields))
public macro StateFields() = #externalMacro(module: "RippleMacrosPlugin", type: "StateFieldsMacro")
