import Testing
@testable import Ripple

/// A reaction cancelled while the graph is checking whether its sources changed: the check
/// runs derivations (user code), and one of them may cancel the reaction being checked,
/// directly, through a parent reaction's teardown, or through a cleanup. The check must then
/// stop quietly: the cancelled reaction does not run again, the others see the new value,
/// and nothing is left alive.
@Suite("Cancel during a source check")
struct CancelDuringCheckTests {
    /// Something a reaction's closure holds, to see that the closure is freed.
    final class Token: Sendable {}

    /// Where a derivation cancels the reaction whose sources are being checked.
    enum Canceller: CaseIterable, CustomStringConvertible {
        /// The derivation cancels the checked reaction's own subscription.
        case direct
        /// The derivation cancels a parent reaction; its teardown cancels the checked child.
        case parentReaction
        /// The derivation cancels another reaction whose cleanup cancels the checked one.
        case cleanup

        var description: String {
            switch self {
            case .direct: "directly"
            case .parentReaction: "by cancelling its parent reaction"
            case .cleanup: "from another reaction's cleanup"
            }
        }
    }

    /// What the other, still live reaction reads.
    enum SecondReads: CaseIterable, CustomStringConvertible {
        /// The computed value that cancels (and changes).
        case sameComputed
        /// Another computed value of the same source that does not change.
        case unchangedComputed

        var description: String {
            switch self {
            case .sameComputed: "the same computed value"
            case .unchangedComputed: "another computed value that does not change"
            }
        }
    }

    @Test("a computed value cancels the reaction being checked", arguments: Canceller.allCases, SecondReads.allCases)
    func computedCancelsCheckedReaction(canceller: Canceller, secondReads: SecondReads) {
        let s = Stored(0)
        let firstRuns = Recorder<Int>()
        let secondRuns = Recorder<Int>()
        weak var weakToken: Token?
        weak var weakComputed: Computed<Int>?
        // What the derivation cancels, set once the reactions exist.
        let target = Cell<Subscription?>(nil)
        let first = Cell<Subscription?>(nil)
        var keep: [Subscription] = []
        do {
            let token = Token()
            weakToken = token
            let a = Computed { () -> Int in
                if s.value == 1 { target.value?.cancel() }
                return s.value
            }
            weakComputed = a
            let unchanged = Computed { s.value >= 0 }
            let startFirst: @Sendable () -> Void = {
                first.value = observe {
                    _ = token; firstRuns.append(a.value)
                }
            }
            switch canceller {
            case .direct:
                startFirst()
                target.value = first.value
            case .parentReaction:
                target.value = observe { startFirst() }
            case .cleanup:
                startFirst()
                target.value = observe { onCleanup { first.value?.cancel() } }
            }
            switch secondReads {
            case .sameComputed:
                keep.append(observe { secondRuns.append(a.value) })
            case .unchangedComputed:
                keep.append(observe { secondRuns.append(unchanged.value ? 1 : 0) })
            }
        }
        #expect(firstRuns.all == [0])

        s.value = 1

        #expect(firstRuns.all == [0], "the cancelled reaction ran again")
        switch secondReads {
        case .sameComputed: #expect(secondRuns.all == [0, 1])
        case .unchangedComputed: #expect(secondRuns.all == [1])
        }
        // Later writes reach only the live reaction.
        s.value = 2
        #expect(firstRuns.all == [0])
        if secondReads == .sameComputed { #expect(secondRuns.all == [0, 1, 2]) }

        // Nothing of the cancelled reaction outlives its subscription.
        first.value = nil
        target.value = nil
        #expect(weakToken == nil, "the cancelled reaction's closure leaked")
        for subscription in keep { subscription.cancel() }
        keep = []
        #expect(weakComputed == nil, "the computed value leaked")
        #expect(!s.hasObserversForTesting)
    }
}
