// expect-error: initializer 'init(_:)' requires that 'Cursor' conform to 'Equatable'
// @StateFields lists every stored property, and a field is compared with its value's `==`: a
// property whose type is not Equatable is refused where the list names it (mark it
// @RippleIgnored when the state's own `==` leaves it out).
import RippleMacros
import RippleStore

struct Cursor: Sendable {
    var position = 0
}

@StateFields
struct EditorState: Equatable, Sendable {
    var text = ""
    var cursor = Cursor()

    static func == (lhs: EditorState, rhs: EditorState) -> Bool { lhs.text == rhs.text }
}
