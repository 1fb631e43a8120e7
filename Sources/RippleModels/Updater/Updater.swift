import Ripple

/// An owner of reactions for one object, in the style of Yoyo's `YoyoUpdater`: it cancels
/// them all when it is released, and can pause them while the object is off screen.
///
/// ```swift
/// final class HeaderView {
///     private let updater = Updater()
///     let tipView = TipView()
///
///     init(model: HeaderViewModel) {
///         let tipView = tipView                           // a Sendable view object
///         updater.keepUpToDate { tipView.isHidden = model.isTipHidden.value }
///         updater.onTransition(model.isTipHidden) { wasHidden, isHidden in
///             if wasHidden == true, !isHidden { print("tip appears") }
///         }
///         updater.bind(tipView, \.title, to: model.tipTitle)
///     }
/// }
/// ```
///
/// **Pausing.** While paused (``pause()``), nothing runs. On ``resume()``, each reaction
/// whose dependencies were written meanwhile runs at most once, and a reaction whose
/// dependencies were not touched does not run:
/// - a transition reports the aggregate `old → latest`, and does not run at all for a value
///   that ended where it started;
/// - ``bind(_:_:to:file:line:)`` and ``keepUpToDate(dependencies:file:line:_:)`` compare
///   values too (when they are `Equatable`), so they skip a value that came back;
/// - an auto-tracked ``keepUpToDate(file:line:_:)`` cannot know what its body would read, so
///   it runs once if anything it read was written while paused, even if it came back.
///
/// The updater's reactions belong to it alone: created inside another reaction, they are not
/// that reaction's children. They hold what their closures capture until the updater goes:
/// capture the owner weakly (or `unowned`), or the updater keeps it alive.
///
/// **What the callbacks own.** An auto-tracked ``keepUpToDate(file:line:_:)`` body is an
/// `observe { }` body: the reactions it creates are cancelled before its next run. The other
/// callbacks are handlers (``keepUpToDate(dependencies:file:line:_:)``, ``onTransition(_:file:line:_:)``,
/// and the assignment of ``bind(_:_:to:file:line:)``, with the `didSet` it triggers): they are
/// untracked, and what they create runs as long as its own subscription.
///
/// Each object that performs side effects should own its updater and not share it.
public final class Updater: Sendable {
    private let subscriptions = SubscriptionBag()
    private let paused = Stored(false)

    /// Creates an updater with no reactions, not paused.
    public init() {}

    /// Whether the updater is paused.
    public var isPaused: Bool { untracked { paused.value } }

    /// Stops running reactions until ``resume()``; changes meanwhile are remembered.
    public func pause() { paused.value = true }

    /// Runs, once each, the reactions whose dependencies changed while paused.
    public func resume() { paused.value = false }

    /// Runs `body` now and after every change of anything it read (Yoyo's `keepUpToDate`).
    ///
    /// Use it for idempotent updates, such as making a view reflect the state.
    ///
    /// - Parameters:
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - body: The reaction; its reads are tracked.
    /// - Returns: The reaction's subscription; the updater also holds it.
    @discardableResult
    public func keepUpToDate(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Subscription {
        react(file: file, line: line, body)
    }

    /// Runs `body` now and after every change of `dependencies`; reads inside `body` are
    /// not tracked (Yoyo's `keepUpToDate(dependencies:)`), and a reaction `body` starts runs
    /// as long as its own subscription.
    ///
    /// A run whose `Equatable` dependencies all hold the values of the last run is skipped.
    ///
    /// - Parameters:
    ///   - dependencies: The values whose changes run `body`.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - body: The reaction, untracked.
    /// - Returns: The reaction's subscription; the updater also holds it.
    @discardableResult
    public func keepUpToDate(
        dependencies: [any ObservableValue & Sendable],
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Subscription {
        let last = _ReactionState<[Any]?>(nil)
        return react(file: file, line: line) {
            let values: [Any] = dependencies.map { $0._readForUpdate() }
            if let previous = last.value, zip(previous, values).allSatisfy(_isKnownEqual) { return }
            last.value = values
            _callHandler(body)
        }
    }

    /// Calls `method` on `target` now and after every change of `dependencies`, holding the
    /// target weakly (Yoyo's `keepUpToDate(dependencies:updater:)`): a view controller that
    /// keeps itself up to date with its own method is not retained by its updater.
    ///
    /// ```swift
    /// final class HeaderView: @unchecked Sendable {
    ///     let updater = Updater()
    ///     init(viewModel: HeaderViewModel) {
    ///         updater.keepUpToDate(dependencies: [viewModel.isTipHidden], updater: self, HeaderView.updateTip)
    ///     }
    ///     func updateTip() { tipView.isHidden = viewModel.isTipHidden.value }
    /// }
    /// ```
    ///
    /// Once the target is released, the reaction does nothing (and ends with the updater).
    ///
    /// - Parameters:
    ///   - dependencies: The values whose changes call the method.
    ///   - target: The object whose method is called; held weakly.
    ///   - method: The method, unapplied (`HeaderView.updateTip`). Untracked.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    /// - Returns: The reaction's subscription; the updater also holds it.
    @discardableResult
    public func keepUpToDate<Target: AnyObject & Sendable>(
        dependencies: [any ObservableValue & Sendable],
        updater target: Target,
        _ method: @escaping @Sendable (Target) -> () -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Subscription {
        keepUpToDate(dependencies: dependencies, file: file, line: line) { [weak target] in
            if let target { method(target)() }
        }
    }

    /// Calls `handler` with the previous and the current value: first with `nil` and the
    /// current value, then on every change (Yoyo's `onTransition`).
    ///
    /// For `Equatable` values a transition to an equal value is not reported, and after a
    /// pause only the aggregate change is. `handler` is untracked, and a reaction it starts
    /// runs as long as its own subscription.
    ///
    /// ```swift
    /// updater.onTransition(isTipHidden) { wasHidden, isHidden in
    ///     if wasHidden != nil, !isHidden { animateTipIn() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - source: The value to follow.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    ///   - handler: Called with the last reported value (`nil` the first time) and the new one.
    /// - Returns: The reaction's subscription; the updater also holds it.
    @discardableResult
    public func onTransition<Source: ObservableValue & Sendable>(
        _ source: Source,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ handler: @escaping @Sendable (_ old: Source.Value?, _ new: Source.Value) -> Void
    ) -> Subscription {
        reactToChanges(of: source, file: file, line: line, handler)
    }

    /// Keeps `object[keyPath: path]` equal to `source`'s value (Yoyo's `bind`).
    ///
    /// The object is held weakly: once it is gone, the binding does nothing. The assignment
    /// runs on the thread that changed `source`.
    ///
    /// ```swift
    /// updater.bind(label, \.text, to: viewModel.title)
    /// ```
    ///
    /// - Parameters:
    ///   - object: The object to assign into.
    ///   - path: The property of `object` to keep up to date.
    ///   - source: The value to follow.
    ///   - file: The file that creates it, named in diagnostics.
    ///   - line: The line that creates it, named in diagnostics.
    /// - Returns: The reaction's subscription; the updater also holds it.
    @discardableResult
    public func bind<Object: AnyObject & Sendable, Source: ObservableValue & Sendable>(
        _ object: Object,
        _ path: any ReferenceWritableKeyPath<Object, Source.Value> & Sendable,
        to source: Source,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Subscription {
        let target = _WeakReference(object)
        return reactToChanges(of: source, while: { target.object != nil }, file: file, line: line) { _, value in
            target.object?[keyPath: path] = value
        }
    }

    /// Calls `handler` (untracked) with the last reported value and the new one, first with
    /// `nil`, then for each value that differs from the last reported one (for `Equatable`
    /// values; every value otherwise).
    ///
    /// Once `isWanted` returns false, the reaction reads nothing, so it never runs again (it is
    /// freed with the updater).
    private func reactToChanges<Source: ObservableValue & Sendable>(
        of source: Source,
        while isWanted: @escaping @Sendable () -> Bool = { true },
        file: StaticString,
        line: UInt,
        _ handler: @escaping @Sendable (_ old: Source.Value?, _ new: Source.Value) -> Void
    ) -> Subscription {
        let isEqual = _equality(for: Source.Value.self)
        let reported = _ReactionState<Source.Value?>(nil)
        return react(file: file, line: line) {
            guard isWanted() else { return }
            let new = source.value
            let old = reported.value
            if let old, let isEqual, isEqual(old, new) { return }
            reported.value = new
            _callHandler { handler(old, new) }
        }
    }

    /// Runs `body` as a reaction held by the updater, unless paused.
    ///
    /// While paused, a run reads only the pause flag: the reaction forgets its dependencies,
    /// and runs again exactly once when the flag is cleared. A reaction whose dependencies did
    /// not change while paused never read the flag, so resuming does not run it.
    private func react(file: StaticString, line: UInt, _ body: @escaping @Sendable () -> Void) -> Subscription {
        let paused = paused
        // The updater owns its reactions, even when it is set up inside someone's reaction.
        let subscription = withoutOwner {
            observe(file: file, line: line) {
                // The tracked read decides: a `resume()` on another thread between the two reads
                // has cleared the flag already, and would not wake a run that returned.
                if untracked({ paused.value }), paused.value { return }
                body()
            }
        }
        subscriptions.insert(subscription)
        return subscription
    }
}
