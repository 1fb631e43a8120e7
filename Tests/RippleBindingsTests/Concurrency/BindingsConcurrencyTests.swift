import Dispatch
import Ripple
import RippleBindings
import RippleModels
import Testing

/// Several threads at once, bounded by iteration counts.
@Suite struct BindingsConcurrencyTests {
    static let threads = 4
    static let iterations = 250

    @Test("a bound property shows the final value after writers on several threads")
    func concurrentWriters() {
        let label = FakeLabel()
        let text = BindableProperty<String?>(label) { $0.text = $1 }
        let count = Stored(0)
        text.bind(count, .transform { "\($0)" })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.iterations { count.update { $0 += 1 } }
        }
        #expect(count.value == Self.threads * Self.iterations)
        #expect(label.text == "\(Self.threads * Self.iterations)")
    }

    @Test("an observable array edited from several threads loses no edit, and its changes rebuild it")
    func concurrentArrayEdits() {
        let items = ObservableArray<Int>()
        let mirror = Locked<[Int]>([])
        let broken = Locked(false)
        let subscription = items.didChangeElements { changes, elements in
            mirror.mutate { shown in
                guard let applied = applyAsTableView(changes, to: shown, reading: elements), applied == elements else {
                    broken.value = true
                    return
                }
                shown = applied
            }
        }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.iterations {
                items.append(thread * 10_000 + i)
                if i % 10 == 0 { items.edit { if $0.count > 1 { $0.move(from: 0, to: $0.count - 1) } } }
            }
        }
        #expect(items.count == Self.threads * Self.iterations)
        #expect(!broken.value)
        #expect(mirror.value == items.value)
        withExtendedLifetime(subscription) {}
    }

    @Test("a list data source fed from several threads keeps its view equal to the source")
    func concurrentDataSource() {
        let source = Stored<[Row]>([])
        let dataSource = ListDataSource(items: source)
        let table = FakeTableView()
        table.connect(dataSource)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.iterations {
                source.update { $0.insert(Row(id: thread * 10_000 + i, title: "r"), at: $0.count / 2) }
                if i % 5 == 0 { source.update { if !$0.isEmpty { $0.removeFirst() } } }
            }
        }
        #expect(table.broken.value == nil)
        #expect(table.rows.value == [source.value])
    }

    @Test("two-way edits and model writes from several threads settle on one value, never looping")
    func concurrentTwoWay() {
        let field = FakeField(reportsProgrammaticChanges: true)
        let property = TwoWayBindableProperty<String>(field, get: { $0.text }, set: { $0.set($1) })
        field.onChange = { [weak property] in property?.userDidEdit() }
        let model = Stored("")
        property.bind(model)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.iterations {
                if thread % 2 == 0 { model.value = "m\(thread)-\(i)" } else { field.type("u\(thread)-\(i)") }
            }
        }
        // Once quiet, one more write from the model is shown as is.
        model.value = "final"
        #expect(field.text == "final")
    }

    @Test("mutating an ObservableArray's value from several threads loses no edit")
    func arrayValueMutations() {
        let array = ObservableArray<Int>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.iterations { array.value.append(thread * 1_000 + i) }
        }
        #expect(array.value.count == Self.threads * Self.iterations)
        #expect(Set(array.value).count == Self.threads * Self.iterations)
    }

    @Test("with a willChange handler, mutating the value from several threads loses no edit")
    func arrayValueMutationsWithAPreview() {
        let array = ObservableArray<Int>([])
        let previews = Locked(0)
        let subscription = array.willChange { _, _ in previews.mutate { $0 += 1 } }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for i in 0..<Self.iterations { array.value.append(thread * 1_000 + i) }
        }
        #expect(array.value.count == Self.threads * Self.iterations)
        #expect(previews.value == Self.threads * Self.iterations)
        withExtendedLifetime(subscription) {}
    }
}
