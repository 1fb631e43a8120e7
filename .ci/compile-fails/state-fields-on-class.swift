// expect-error: @StateFields can only be applied to a struct
// A store's state is a value: @StateFields refuses a class (and an enum or an actor) with a
// diagnostic of its own, rather than listing fields a store could not compare.
import RippleMacros
import RippleStore

@StateFields
final class EditorState {
    var text = ""
}
