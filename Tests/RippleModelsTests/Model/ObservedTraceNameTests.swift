import Ripple
import Testing
@testable import RippleModels

/// Traces, dependency snapshots and diagnostics name an `@Observed` property as the
/// `@RippleModel` macro names its properties: `'Model.property'`, not a line of Ripple's own
/// `Observed.swift`.
@Suite("@Observed trace names")
struct ObservedTraceNameTests {
    final class TodoList: SendableModel, @unchecked Sendable {
        @Observed var items: [String] = []
        @Observed var filter = "all"
        @Observed var selection: String?
        @Observed var untouched = 0

        /// The storage key path `Observed` names the property by.
        static var untouchedStorage: AnyKeyPath { \TodoList._untouched }
    }

    @Test("a write traces the property as 'Model.property'")
    func writeNamesModelAndProperty() {
        let list = TodoList()
        let recorder = TraceRecorder()
        withTracer(recorder) { list.items = ["milk"] }
        #expect(recorder.lines == [#"write 'TodoList.items': [] → ["milk"]"#])
    }

    @Test("a reaction's run names the @Observed properties it read")
    func reactionRunNamesSources() {
        let list = TodoList()
        let reaction = observe(named: "show") { _ = "\(list.filter) \(list.items.count)" }
        let recorder = TraceRecorder()
        withTracer(recorder) { list.filter = "done" }
        #expect(recorder.lines == ["write 'TodoList.filter': all → done", "run 'show': 'TodoList.filter' all → done"])
        reaction.cancel()
    }

    @Test("a dependency snapshot names a property that was only read, an optional one included")
    func snapshotNamesReadProperties() {
        let list = TodoList()
        let read = dependencies {
            _ = list.items
            _ = list.selection
        }
        #expect(read.sources.map(\.name) == ["'TodoList.items'", "'TodoList.selection'"])
    }

    @Test("writes through a binding and compound assignments name the property too")
    func bindingAndCompoundAssignmentName() {
        let list = TodoList()
        let recorder = TraceRecorder()
        withTracer(recorder) {
            list.bindings.filter.value = "active"
            list.untouched += 1
        }
        #expect(
            recorder.lines.filter { $0.hasPrefix("write") } == [
                "write 'TodoList.filter': all → active", "write 'TodoList.untouched': 0 → 1",
            ])
    }

    @Test("a property its model has not reached yet is named by its declaration, not by Observed.swift")
    func unreachedPropertyNamedByDeclaration() throws {
        let list = TodoList()
        let wrapper = try #require(Mirror(reflecting: list).children.first { $0.label == "_untouched" }?.value)
        let storage = try #require(Mirror(reflecting: wrapper).children.first?.value as? Stored<Int>)
        #expect(storage.description == "Stored(RippleModelsTests/ObservedTraceNameTests.swift:14)(0)")
        _ = list.untouched
        #expect(storage.description == "Stored'TodoList.untouched'(0)")
    }

    @Test("the first accesses from several threads name the property once (bounded by iterations)")
    func concurrentFirstAccessesNameOnce() async {
        for _ in 0..<50 {
            let list = TodoList()
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        if index % 2 == 0 { _ = list.items } else { list.items = ["\(index)"] }
                    }
                }
            }
            let read = dependencies { _ = list.items }
            #expect(read.sources.map(\.name) == ["'TodoList.items'"])
        }
    }

    final class Calls: @unchecked Sendable {
        var count = 0
    }

    /// Naming a property described its storage key path and its model's type for every model:
    /// about 24 000 instructions per property (`count-instructions.sh --store modelFirstRead`,
    /// a model of three properties made and read: 107 955 -> 15 669).
    @Test("a property's name is made once per model type, a key path that spells none included")
    func namesAreMadeOncePerType() {
        let names = _PropertyNames()
        let calls = Calls()
        for _ in 0..<3 {
            #expect(
                names.name(for: \TodoList.items) {
                    calls.count += 1; return "TodoList.items"
                } == "TodoList.items")
            #expect(
                names.name(for: \TodoList.filter) {
                    calls.count += 1; return nil
                } == nil)
        }
        #expect(calls.count == 2)
    }

    @Test("a model's first access keeps its property's name for the other models of its type")
    func firstAccessKeepsTheName() {
        _ = TodoList().untouched
        #expect(_PropertyNames.shared.kept(for: TodoList.untouchedStorage) == .some("TodoList.untouched"))
    }

    @Test("every model of a type names its properties, not only the first")
    func everyModelIsNamed() {
        let lists = (0..<3).map { _ in TodoList() }
        let recorder = TraceRecorder()
        withTracer(recorder) {
            for (index, list) in lists.enumerated() { list.untouched = index + 1 }
        }
        #expect(
            recorder.lines == [
                "write 'TodoList.untouched': 0 → 1", "write 'TodoList.untouched': 0 → 2",
                "write 'TodoList.untouched': 0 → 3",
            ])
    }
}
