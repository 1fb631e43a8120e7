import Observation

/// A class whose ``Observed`` properties can be tracked, observed and bound to.
///
/// Conform a model class and mark its observable properties with ``Observed``. Reading such
/// a property inside a `Computed` or an `observe { }` reaction tracks it like a `Stored`;
/// its ``bindings`` (or `$model` with ``ObservedModel``) are two-way bindings:
/// ``MainActorValueBinding``s for a main-actor model, ``ValueBinding``s for a ``SendableModel``.
///
/// On the main actor (a `@MainActor` class, or any class in an app target that is main-actor
/// isolated by default), a model needs nothing more:
///
/// ```swift
/// final class CounterModel: ObservableModel {
///     @Observed var count = 0 {
///         didSet { print("count:", count) }        // runs on the main actor only
///     }
/// }
/// let count = CounterModel().bindings.count         // MainActorValueBinding<Int>
/// ```
///
/// A model shared by several threads is a ``SendableModel``:
///
/// ```swift
/// final class ProfileModel: SendableModel, @unchecked Sendable {
///     @Observed var name = ""
///     @Observed var frame = Frame() {
///         didSet { print("frame moved") }
///     }
/// }
///
/// let model = ProfileModel()
/// let observer = model.bindings.name.didChange { print("name:", $0) }
/// model.name = "Ada"                       // prints "name: Ada"
/// model.bindings.frame.size.width.value = 4 // didSet runs
/// ```
///
/// Each `@Observed` property stores its value in thread-safe reactive storage. A model whose
/// mutable state is all `@Observed` can therefore be shared across threads: declare it a
/// ``SendableModel`` and `@unchecked Sendable`, as above. Otherwise keep it on one actor. A `@MainActor` model
/// needs neither: it is `Sendable` as it is, and derives values and reacts with
/// `MainActorComputed(owner:)` and `observeOnMainActor(owner:)` (see the article "Build a
/// view model" in RippleModels' documentation).
///
/// A model is also `Observable` (Apple's Observation framework), so SwiftUI takes it as it takes
/// an `@Observable` class: a view whose body reads `model.name` is updated when the name
/// changes, `@Bindable var model` gives SwiftUI bindings (`$model.name`), and
/// `withObservationTracking` and `Observations { }` work with it. Each `@Observed` property
/// registers the read itself (as a `Stored` read outside any derivation or reaction does), so a
/// change is reported once, for the property that changed (writing an equal value of an
/// `Equatable` type is no change).
public protocol ObservableModel: AnyObject, Observable {}

extension ObservableModel {
    /// Two-way bindings to the model's properties: `model.bindings.count` reads and writes
    /// `model.count`.
    ///
    /// For a main-actor model it is a ``MainActorValueBinding``, used on the main actor; for a
    /// ``SendableModel``, a ``ValueBinding`` that any thread may use (see ``ModelBindings``).
    public var bindings: ModelBindings<Self> { ModelBindings(self) }
}
