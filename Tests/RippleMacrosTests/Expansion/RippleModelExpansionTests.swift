import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite("@RippleModel expansion")
struct RippleModelExpansionTests {
    @Test func storedPropertiesBecomeReactive() {
        expectExpansion(
            """
            @RippleModel
            final class TodoList {
                var items: [Item] = []
                var filter = Filter.all
            }
            """,
            expandsTo: ""
        )
    }
}
