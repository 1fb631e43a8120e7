import Testing
@testable import Ripple

/// Who keeps a node alive. An observer's edge holds a reference to its source; a source's link
/// holds one to a subscriber (a reaction, a watcher) but none to a computed value, which is live
/// only while its observers' edges hold it and is unlinked from its sources before the last of
/// them is dropped (see `_Link`). These tests reach the state where a computed value's only
/// owner is an observer's edge while it is still linked to its source, then make the observer
/// let go of it: a link released once too often, or not at all, shows as a crash, an
/// AddressSanitizer report or a value that is never freed.
@Suite struct EdgeOwnershipTests {
    /// Freed when the derivation that captures it is freed: stands for the computed node.
    final class Token: Sendable {}

    /// A weak reference to a token, to keep several in an array.
    struct WeakToken {
        weak var token: Token?
    }

    @Test(
        "a computed value held only by its observer's edge stays linked, then is freed when the observer stops reading it"
    )
    func heldOnlyByAnEdge() {
        let source = Stored(1)
        let holder = Stored<Computed<Int>?>(nil, equals: nil)
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            holder.value = Computed { withExtendedLifetime(token) { source.value * 2 } }
        }
        nonisolated(unsafe) var seen: [Int?] = []
        let reaction = observe { seen.append(holder.value?.value) }
        #expect(seen == [2])
        #expect(source.observerCountForTesting == 1)

        // The handle goes with this write; until the reaction runs again, the computed value is
        // kept only by the reaction's edge, and is still linked to `source`.
        holder.value = nil
        #expect(seen == [2, nil])
        #expect(weakToken == nil)
        #expect(source.observerCountForTesting == 0)

        source.value = 5
        #expect(seen == [2, nil])
        withExtendedLifetime(reaction) {}
    }

    @Test("a chain of computed values kept only by a reaction's edges is freed level by level when it is cancelled")
    func chainHeldByAReaction() {
        let source = Stored(1)
        weak var weakToken: Token?
        nonisolated(unsafe) var seen: [Int] = []
        var reaction: Subscription?
        do {
            let token = Token()
            weakToken = token
            let bottom = Computed { withExtendedLifetime(token) { source.value + 1 } }
            let middle = Computed { bottom.value * 10 }
            let top = Computed { middle.value + 3 }
            reaction = observe { seen.append(top.value) }
        }
        // Every handle is gone: `top` is held by the reaction's edge, `middle` by `top`'s,
        // `bottom` by `middle`'s.
        #expect(weakToken != nil)
        source.value = 2
        #expect(seen == [23, 33])
        #expect(source.observerCountForTesting == 1)

        reaction?.cancel()
        reaction = nil
        #expect(weakToken == nil)
        #expect(source.observerCountForTesting == 0)
    }

    @Test(
        "a reaction that switches between computed values, each held only by its edge while read, frees each one it stops reading"
    )
    func switchingReaderFreesWhatItDrops() {
        let source = Stored(0)
        let choice = Stored(0)
        var weakTokens: [WeakToken] = []
        var kept: [Computed<Int>] = []
        for index in 0..<3 {
            let token = Token()
            weakTokens.append(WeakToken(token: token))
            kept.append(Computed { withExtendedLifetime(token) { source.value + index * 100 } })
        }
        let options = Stored<[Computed<Int>]>(kept, equals: nil)
        kept = []
        nonisolated(unsafe) var seen: [Int] = []
        let reaction = observe { seen.append(options.value[choice.value % options.value.count].value) }
        for step in 1...6 {
            choice.value = step
            source.value = step
        }
        #expect(seen.last == 6 + (6 % 3) * 100)
        // Dropping the list leaves the one read last held by the reaction's edge alone; the next
        // run reads an empty list's replacement and lets it go.
        options.value = [Computed { -1 }]
        #expect(seen.last == -1)
        #expect(weakTokens.allSatisfy { $0.token == nil })
        #expect(source.observerCountForTesting == 0)
        withExtendedLifetime(reaction) {}
    }
}
