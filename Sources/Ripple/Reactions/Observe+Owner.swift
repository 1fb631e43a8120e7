/// Runs `body` with `owner`, which it holds weakly, now and again after every change of
/// anything it read; once `owner` is gone, the reaction stops.
///
/// Use it for a reaction that an object starts on itself and keeps (in a ``SubscriptionBag``
/// or a property): a body that captures `self` keeps the object alive for as long as the
/// reaction runs, and the object keeps the reaction, so neither is ever freed. This body
/// receives the owner as its argument instead.
///
/// ```swift
/// final class Autosave: Sendable {
///     let document: Document
///     let bag = SubscriptionBag()
///
///     init(document: Document) {
///         self.document = document
///         observe(owner: self) { autosave in
///             autosave.save(autosave.document.text.value)
///         }.store(in: bag)
///     }
/// }
/// ```
///
/// Everything else is as for ``observe(file:line:_:)``. The first run that finds the owner
/// gone does not call `body`: it cancels the reaction, which lets go of everything it read
/// (usually the owner's own `deinit` has already cancelled it, by releasing its bag).
///
/// - Parameters:
///   - owner: The object passed to `body`; held weakly.
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
///   - body: The reaction, called with the owner.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observe<Owner: AnyObject & Sendable>(
    owner: Owner,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @Sendable (Owner) -> Void
) -> Subscription {
    let reference = _WeakOwner(owner)
    return observe(file: file, line: line) {
        guard let owner = reference.object else {
            _ThreadContext.current.reaction?.cancel()
            return
        }
        body(owner)
    }
}

/// Runs `body` on the main actor with `owner`, which it holds weakly, now and again after
/// every change of anything it read; once `owner` is gone, the reaction stops.
///
/// The main-actor form of ``observe(owner:file:line:_:)``, for reactions a `@MainActor`
/// class starts on itself and keeps; it runs as ``observeOnMainActor(isolation:file:line:_:)``
/// does (the first run before it returns when called from main-actor code).
///
/// ```swift
/// @MainActor final class TodoScreen {
///     let list: TodoList
///     var title = ""
///     private var subscription: Subscription?
///
///     init(list: TodoList) {
///         self.list = list
///         subscription = observeOnMainActor(owner: self) { screen in
///             screen.title = "\(screen.list.remaining.value) left"
///         }
///     }
/// }
/// ```
///
/// - Parameters:
///   - owner: The object passed to `body`; held weakly.
///   - isolation: The caller's isolation, filled in by the compiler: when it is the main
///     actor, the first run happens at once.
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
///   - body: The reaction, isolated to the main actor, called with the owner.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observeOnMainActor<Owner: AnyObject & Sendable>(
    owner: Owner,
    isolation: isolated (any Actor)? = #isolation,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @MainActor (Owner) -> Void
) -> Subscription {
    let reference = _WeakOwner(owner)
    return observeOnMainActor(isolation: isolation, file: file, line: line) {
        guard let owner = reference.object else {
            _ThreadContext.current.reaction?.cancel()
            return
        }
        body(owner)
    }
}

/// ``observeOnMainActor(owner:isolation:file:line:_:)`` with a name: traces and diagnostics
/// name the reaction by it.
///
/// ```swift
/// badge = observeOnMainActor(named: "badge", owner: self) { screen in
///     screen.badge = "\(screen.model.remaining.value) left"
/// }
/// ```
///
/// - Parameters:
///   - name: The reaction's name.
///   - owner: The object passed to `body`; held weakly.
///   - isolation: The caller's isolation, filled in by the compiler.
///   - file: The file that creates it.
///   - line: The line that creates it.
///   - body: The reaction, isolated to the main actor, called with the owner.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
public func observeOnMainActor<Owner: AnyObject & Sendable>(
    named name: String,
    owner: Owner,
    isolation: isolated (any Actor)? = #isolation,
    file: StaticString = #fileID,
    line: UInt = #line,
    _ body: @escaping @MainActor (Owner) -> Void
) -> Subscription {
    let reference = _WeakOwner(owner)
    return observeOnMainActor(named: name, isolation: isolation, file: file, line: line) {
        guard let owner = reference.object else {
            _ThreadContext.current.reaction?.cancel()
            return
        }
        body(owner)
    }
}

/// A weak reference to a `Sendable` object, readable from any thread.
final class _WeakOwner<Owner: AnyObject & Sendable>: Sendable {
    weak let object: Owner?

    init(_ object: Owner) {
        self.object = object
    }
}
