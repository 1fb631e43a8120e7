/// Makes a class a Ripple model: every stored `var` becomes a reactive value that
/// `Computed`, `observe { }`, bindings, Observation and SwiftUI can track, with no property
/// wrappers and no `@unchecked Sendable`.
///
/// ```swift
/// import RippleMacros
///
/// @RippleModel
/// final class TodoList {
///     var items: [Item] = []
///     var filter = Filter.all
///     let title: String                                         // a `let`: left alone
///     var remaining: Int { items.filter { !$0.isDone }.count }   // computed: left alone
///
///     init(title: String) { self.title = title }
/// }
///
/// let list = TodoList(title: "Groceries")
/// let log = observe { print(list.remaining, "left") }     // prints "0 left"
/// list.items.append(Item(title: "Milk"))                  // atomic; prints "1 left"
/// let filter: ValueBinding<Filter> = list.bindings.filter // two-way
/// ```
///
/// What the macro does:
///
/// - **Stored properties.** Each stored `var` keeps its value in a `Stored` (in a generated
///   private property, `_items` for `items`) and gets accessors that read and write it. Reading
///   one inside a `Computed` or a reaction tracks it; writing it notifies only if the value
///   changed (for `Equatable` values; other values notify on every write). A compound
///   assignment (`list.count += 1`, `list.items.append(x)`) is one atomic read-modify-write: the
///   property's other writers wait until it ends. Initial values and assignments in `init`
///   work as usual. The property's type must be `Sendable` (its value is shared with readers
///   on any thread), as for `@Observed`.
/// - **Left alone:** `let` properties, computed properties, `static` ones, `lazy`, `weak` and
///   `unowned` ones, properties with a property wrapper (`@Observed`, `@Persisted`), and those
///   marked ``RippleIgnored()``.
/// - **`Observable`.** The class conforms to Observation's `Observable`: reading a property in
///   `withObservationTracking` (or a SwiftUI view's body) registers it, and `@Bindable` takes the
///   model.
/// - **`ObservableModel`.** `model.bindings.items` is a two-way `ValueBinding`, and
///   `@ObservedModel` holds the model.
/// - **Isolation.** Write `@MainActor` on the class to make it a main-actor model: its methods
///   then call main-actor code, and `model.bindings` are main-actor bindings. Without it the
///   class is nonisolated, also in a module that is main-actor isolated by default (Xcode 26's
///   app targets), unlike an `@Observable` class there: the macro may conform it to
///   `Sendable`, and Swift infers no main actor for such a class. Its properties are
///   thread-safe either way.
/// - **`Sendable`.** A `final` class that holds no other mutable state than its generated
///   storage gets a `Sendable` conformance that the compiler checks: it verifies that every
///   other stored property is a `let` of a `Sendable` type. A `@MainActor` class is `Sendable`
///   by its isolation either way, and gets no `SendableModel` conformance, so that its
///   bindings stay on the main actor. A class with mutable state the macro leaves alone (an
///   ignored `var`, a `lazy var`, a property wrapper, also inside `#if`) or that is not
///   `final` gets no `Sendable` conformance: keep it on one actor, or declare the conformance
///   yourself once that state is protected.
/// - **`Codable`.** The compiler does not synthesize `Codable` for a model (its properties
///   are accessors over generated storage): write `init(from:)` and `encode(to:)`, or encode a
///   value type the model is made from.
/// - **Subclasses.** With Swift 6.3, a class that inherits from a non-`final` `@RippleModel`
///   class stops the compiler with an internal error (it counts the conformances the macro
///   may add as inherited). Make model classes `final` and compose them.
///
/// `willSet` and `didSet` are refused on the properties the macro manages (the macro replaces
/// their accessors, which would silently drop the observers): react with
/// `model.bindings.count.didChange { }`, `onChange` or `observe { }`, or mark the property
/// ``RippleIgnored()``.
///
/// On a `@MainActor` class the properties are main-actor isolated, like the rest of the class.
/// Their storage is thread-safe, so a property declared `nonisolated var` can be read, written
/// and bound to from any thread: `ValueBinding(model, \.progress)` (the compiler checks that the
/// key path is `Sendable`). `model.bindings` of a main-actor model are main-actor bindings.
///
/// - Complexity: Reading or writing a property costs what the same access costs on a `Stored`,
///   plus one task-local read (the same as an `@Observed` property).
@attached(memberAttribute)
@attached(extension, conformances: Observable, ObservableModel, Sendable, SendableModel)
public macro RippleModel() = #externalMacro(module: "RippleMacrosPlugin", type: "RippleModelMacro")
