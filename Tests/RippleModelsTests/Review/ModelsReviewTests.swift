import Foundation
import Ripple
import Testing
@testable import RippleModels

@Suite("RippleModels review")
struct ModelsReviewTests {
    // MARK: Persisted: a write is never lost

    @Test("a value flushed inside a batch, then written back in that batch, is saved")
    func flushInsideBatchThenWriteBack() {
        let store = MemoryStore()
        let theme = Persisted("theme", default: "light", store: store)
        theme.value = "dark"                     // saved at once (write-through store)
        batch {
            theme.value = "blue"
            theme.flush()                        // saves "blue"
            theme.value = "dark"
        }
        #expect(theme.value == "dark")
        #expect(store.raw("theme") as? String == "dark")
        let reloaded = MemoryStore()
        reloaded.set(store.raw("theme"), forKey: "theme")
        #expect(Persisted("theme", default: "light", store: reloaded).value == "dark")
    }
}
