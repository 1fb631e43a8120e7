import Ripple
import RippleBindings
import RippleModels
import Testing

private final class ExampleThermometer: @unchecked Sendable {
    private let signal = ChangeSignal()
    private let lock = NSLockLike()
    private var celsius = 20.0

    var reading: Double {
        signal.reportRead()
        return lock.with { celsius }
    }
    func record(_ value: Double) {
        lock.with { celsius = value }
        signal.reportChange()
    }
}

private struct ExampleCity: Equatable, Sendable { var name: String; var population: Int }

@Suite struct DocumentedExampleTests {
    @Test("ListChanges: the example of its documentation")
    func listChangesExample() {
        let changes = ListChanges(from: ["a", "b", "c"], to: ["c", "a", "d"], id: \.self)
        #expect(changes.deletions == [1])
        #expect(changes.insertions == [2])
        #expect(changes.moves == [.init(from: 2, to: 0)])
        #expect(changes.description == "-[1] +[2] ↕[2→0] ~[]")
    }

    @Test("ChangeSignal: the example of its documentation")
    func changeSignalExample() {
        let thermometer = ExampleThermometer()
        let warm = Computed { thermometer.reading > 25 }
        #expect(warm.value == false)
        thermometer.record(30)
        #expect(warm.value == true)
    }

    @Test("ListItem and keyed data sources: the examples of their documentation")
    func keyedExamples() {
        let cities = Stored([ExampleCity(name: "Oslo", population: 709_000)])
        let dataSource = ListDataSource(items: cities, id: \.name)
        let city = dataSource.item(at: ListIndex(item: 0))
        #expect(city.name == "Oslo")
        let item = ListItem(ExampleCity(name: "Oslo", population: 709_000), id: "Oslo")
        #expect(item.population == 709_000)
    }

    @Test("an optional control bound to a non-optional value with a default (the migration table)")
    func optionalDefault() {
        final class Field: @unchecked Sendable { var text: String? = nil }
        let field = Field()
        let text = TwoWayBindableProperty<String?>(field, get: { $0.text }, set: { $0.text = $1 })
        let name = Stored("Ada")
        text.bind(name, default: "")
        #expect(field.text == "Ada")
        field.text = nil
        text.userDidEdit()
        #expect(name.value == "")
        #expect(field.text == nil)  // "the control keeps its nil"
    }
}
