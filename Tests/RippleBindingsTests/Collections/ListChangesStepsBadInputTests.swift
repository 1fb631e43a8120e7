import Ripple
import RippleBindings
import RippleModels
import Testing

/// Bad input to `ListChanges.steps(oldCount:)` must stop with a named message, never give steps
/// that silently turn the list into something else.
@Suite struct ListChangesStepsBadInputTests {
    @Test("a deletion listed twice stops with a message instead of deleting two elements")
    func repeatedDeletion() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                // Two elements, "one" deletion listed twice: the steps delete both.
                _ = ListChanges(deletions: [0, 0]).steps(oldCount: 2)
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("RippleBindings: ListChanges.steps(oldCount: 2)"))
    }

    @Test("two moves to one destination stop with a message instead of losing an element")
    func movesToOneDestination() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = ListChanges(moves: [.init(from: 0, to: 1), .init(from: 1, to: 1)]).steps(oldCount: 2)
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("RippleBindings: ListChanges.steps(oldCount: 2)"))
    }
}
