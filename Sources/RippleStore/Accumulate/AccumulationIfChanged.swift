/// A part of an `accumulate { }` subscriber: runs its handler when the value it watches
/// changed since the previous delivery (Verge's `ifChanged(…).dropFirst(n).do { }`).
///
/// Made by ``AccumulationBuilder/ifChanged(_:)``. The part remembers the value it saw in each
/// delivery (and how many changes it has handled), in its place in the closure: a part inside
/// an `if` that was not taken in the previous delivery starts afresh, as in Verge.
public struct AccumulationIfChanged<State, Value: Equatable> {
    let selector: (State) -> Value
    var dropCount = 0
    var handler: ((Value) -> Void)?

    init(selector: @escaping (State) -> Value) {
        self.selector = selector
    }

    /// The same part, whose handler skips the first `count` changes; the value seen in the
    /// first delivery counts as the first change, so `dropFirst()` runs only on later changes.
    ///
    /// - Parameter count: How many changes to skip (1 by default).
    /// - Precondition: `count` is not negative.
    public func dropFirst(_ count: Int = 1) -> Self {
        precondition(count >= 0, "RippleStore: accumulate's dropFirst(\(count)) needs a count of 0 or more.")
        var copy = self
        copy.dropCount = count
        return copy
    }

    /// The same part, with `perform` as its handler: it runs with the new value each time the
    /// value changed (after the changes ``dropFirst(_:)`` skips). A part without a handler
    /// runs nothing.
    ///
    /// - Parameter perform: Receives the new value.
    public func `do`(_ perform: @escaping (Value) -> Void) -> Self {
        var copy = self
        copy.handler = perform
        return copy
    }

    /// The part as the accumulation runs it: given the state and what it remembered from the
    /// previous delivery, runs the handler if due and returns what to remember.
    var _part: _AccumulationPart<State> {
        _AccumulationPart(path: []) { [selector, handler, dropCount] state, memory in
            let value = selector(state)
            var handled = memory?.handled ?? 0
            // No memory: the first delivery, a change. (Not `memory?.value as? Value`: for an
            // optional `Value`, a missing memory casts to `.some(nil)`, equal to a `nil` value.)
            let changed = memory.map { ($0.value as? Value) != value } ?? true
            if let handler, changed {
                if handled >= dropCount { handler(value) }
                handled += 1
            }
            return _AccumulationMemory(value: value, handled: handled)
        }
    }
}

/// One part of an accumulation, at its place (`path`) in the closure that built it.
struct _AccumulationPart<State> {
    var path: [Int]
    let run: (State, _AccumulationMemory?) -> _AccumulationMemory
}

/// What a part remembers between deliveries: the value it saw and the changes it handled.
struct _AccumulationMemory {
    let value: Any
    let handled: Int
}
