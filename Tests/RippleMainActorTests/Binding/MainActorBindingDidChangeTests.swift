import Ripple
import RippleModels
import Testing

// DidUpdate's `model.bindings.count.didChange { }` in a main-actor app, where the binding is a
// `MainActorValueBinding`.

@Suite("didChange on a main-actor model's binding")
struct MainActorBindingDidChangeTests {
    @Test("the handler gets each change once, never an equal write")
    func reportsChanges() {
        let canvas = Canvas()
        var seen: [Int] = []
        let subscription = canvas.bindings.count.didChange { seen.append($0) }
        canvas.count = 1
        canvas.count = 1
        canvas.count = 2
        #expect(seen == [1, 2])
        subscription.cancel()
        canvas.count = 3
        #expect(seen == [1, 2])
    }

    @Test("withCurrent calls at once; the two-value form gets old and new")
    func withCurrentAndOldNew() {
        let canvas = Canvas()
        var seen: [String] = []
        let subscription = canvas.bindings.count.didChange(withCurrent: true) { old, new in seen.append("\(old)→\(new)")
        }
        canvas.count = 5
        #expect(seen == ["0→0", "0→5"])
        withExtendedLifetime(subscription) {}
    }

    @Test("a projection reports only its own part's changes")
    func projection() {
        let canvas = Canvas()
        var widths: [Double] = []
        let subscription = canvas.bindings.frame.width.didChange { widths.append($0) }
        canvas.frame.height = 10
        canvas.frame.width = 3
        #expect(widths == [3])
        withExtendedLifetime(subscription) {}
    }
}
