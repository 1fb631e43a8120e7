import Ripple
import Testing
@testable import RippleModels

@Suite("@Observed model properties")
struct ObservedTests {
    /// Not `Equatable`: every write is a change.
    struct Opaque: Sendable { var id: Int }

    final class Document: SendableModel, @unchecked Sendable {
        @Observed var cursor = Opaque(id: 0)
        @Observed var title = ""
        @Observed var pages = 0
        var summary: String { "\(title) (\(pages))" }
    }

    @Test("a property of a non-Equatable type notifies on every write")
    func nonEquatableNotifiesEveryWrite() {
        let document = Document()
        let runs = Log<Int>()
        let reaction = observe { runs.append(document.cursor.id) }
        document.cursor = Opaque(id: 0)
        document.cursor = Opaque(id: 1)
        #expect(runs.all == [0, 0, 1])
        reaction.cancel()
    }

    @Test("a computed property of the model is tracked through the properties it reads")
    func computedModelProperty() {
        let document = Document()
        let summary = Computed { document.summary }
        let seen = Log<String>()
        let reaction = observe { seen.append(summary.value) }
        batch {
            document.title = "Notes"
            document.pages = 2
        }
        #expect(seen.all == [" (0)", "Notes (2)"])
        reaction.cancel()
    }

    @Test("writes from several tasks leave every property consistent (bounded by iterations)")
    func concurrentWrites() async {
        let document = Document()
        let iterations = 500
        let observedPages = Log<Int>()
        let reaction = document.bindings.pages.didChange { observedPages.append($0) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for page in 1...iterations { document.pages = page }
            }
            group.addTask {
                for index in 1...iterations { document.title = "t\(index)" }
            }
            group.addTask {
                for _ in 1...iterations { _ = document.summary }
            }
        }
        #expect(document.pages == iterations)
        #expect(document.title == "t\(iterations)")
        #expect(observedPages.all.last == iterations)
        #expect(observedPages.all == observedPages.all.sorted(), "changes from one writer arrive in order")
        reaction.cancel()
    }
}
