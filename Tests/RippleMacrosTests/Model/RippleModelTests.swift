import Dispatch
import RippleMacros
import Testing

@Suite("@RippleModel classes")
struct RippleModelTests {
    @Test("stored properties start from their initial values, and an init may assign them")
    func initialValues() {
        let list = TodoList()
        #expect(list.items.isEmpty)
        #expect(list.filter == .all)
        #expect(list.note == nil)
        #expect(list.title == "To do")

        let assigned = TodoList(title: "Work", filter: .done, note: "urgent")
        #expect(assigned.filter == .done)
        #expect(assigned.note == "urgent")
        assigned.filter = .open
        #expect(assigned.filter == .open)
    }

    @Test("a Computed tracks the properties it reads; an equal write changes nothing")
    func computedTracksProperties() {
        let list = TodoList()
        let evaluations = Log<Int>()
        let remaining = Computed {
            evaluations.append(1)
            return list.remaining
        }
        let seen = Log<Int>()
        let reaction = observe { seen.append(remaining.value) }
        list.add("Milk")
        list.items = list.items  // equal: nothing runs
        list.filter = .done  // not read by `remaining`
        list.items[0].isDone = true
        #expect(seen.all == [0, 1, 0])
        #expect(evaluations.count == 3)
        reaction.cancel()
    }

    @Test("a property of a non-Equatable type notifies on every write")
    func nonEquatableNotifiesEveryWrite() {
        let list = TodoList()
        let seen = Log<Int>()
        let reaction = observe { seen.append(list.cursor.position) }
        list.cursor = Cursor(position: 0)
        list.cursor.position = 2
        #expect(seen.all == [0, 0, 2])
        reaction.cancel()
    }

    @Test("writes inside a batch reach a reaction once")
    func batchedWrites() {
        let list = TodoList()
        let seen = Log<String>()
        let reaction = observe { seen.append("\(list.items.count) \(list.filter)") }
        batch {
            list.add("Milk")
            list.add("Eggs")
            list.filter = .open
        }
        #expect(seen.all == ["0 all", "2 open"])
        reaction.cancel()
    }

    @Test("a compound assignment is one atomic read-modify-write (8 threads × 5 000)")
    func compoundAssignmentIsAtomic() {
        let list = TodoList()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<5_000 {
                list.count += 1
                if index.isMultiple(of: 50) { list.items.append(Item(title: "\(thread)-\(index)")) }
            }
        }
        #expect(list.count == 40_000)
        #expect(list.items.count == 800)
    }

    @Test("model.bindings gives two-way bindings; didUpdate hears equal writes, didChange only changes")
    func bindings() {
        let list = TodoList()
        let filter: ValueBinding<Filter> = list.bindings.filter
        let updates = Log<Int>()
        let changes = Log<Int>()
        let observers = SubscriptionBag {
            list.bindings.count.didUpdate { updates.append($0) }
            list.bindings.count.didChange { changes.append($0) }
        }
        filter.value = .done
        #expect(list.filter == .done)
        list.bindings.count.value += 2
        list.count = 2
        list.bindings.items.update { $0.append(Item(title: "Milk")) }
        #expect(list.items.map(\.title) == ["Milk"])
        #expect(updates.all == [2, 2])
        #expect(changes.all == [2])
        withExtendedLifetime(observers) {}
    }

    @Test("reading a property inside withObservationTracking registers it")
    func observationTracking() {
        let list = TodoList()
        requireObservable(list)
        let fired = Log<Int>()
        withObservationTracking {
            _ = list.items
        } onChange: {
            fired.append(1)
        }
        list.filter = .done  // not read: nothing
        #expect(fired.count == 0)
        list.add("Milk")
        #expect(fired.count == 1)
    }

    @Test("a final model with no other mutable state is Sendable, checked by the compiler")
    func sendable() async {
        let list = TodoList()
        requireSendable(list)
        requireObservableModel(list)
        await Task.detached { list.add("from a task") }.value
        #expect(list.items.count == 1)
    }

    @Test("an ignored property is a plain property: Observation does not track it")
    func ignoredProperty() {
        let pad = Scratchpad()
        requireObservable(pad)
        let fired = Log<Int>()
        withObservationTracking {
            _ = pad.edits
            _ = pad.text
        } onChange: {
            fired.append(1)
        }
        pad.edits = 3  // not tracked
        #expect(pad.lastEdit == 3)  // its didSet still runs
        #expect(fired.count == 0)
        pad.text = "a"
        #expect(fired.count == 1)
    }

    @Test("a model is freed when its last owner lets it go")
    func modelIsFreed() {
        weak var weakList: TodoList?
        do {
            let list = TodoList()
            weakList = list
            let total = Computed { list.count * 2 }
            let reaction = observe { _ = total.value }
            list.count = 1
            reaction.cancel()
        }
        #expect(weakList == nil)
    }
    @Test("a property whose name needs backticks is tracked")
    func backtickedName() {
        let preferences = Preferences()
        let seen = Log<Bool>()
        let reaction = observe { seen.append(preferences.default) }
        preferences.default = true
        #expect(seen.all == [false, true])
        reaction.cancel()
    }
}

@Suite("@RippleModel on the main actor")
@MainActor
struct MainActorModelTests {
    @Test("a @MainActor model is Sendable by isolation, and Observation tracks it")
    func mainActorModel() async {
        let counter = MainActorCounter()
        requireSendable(counter)
        let fired = Log<Int>()
        withObservationTracking {
            _ = counter.count
        } onChange: {
            fired.append(1)
        }
        counter.count += 1
        counter.renders += 1
        #expect(fired.count == 1)
        #expect(counter.count == 1)
        // The model crosses to another task and back.
        let count = await Task.detached { await counter.count }.value
        #expect(count == 1)
    }

    @Test("the bindings of a @MainActor model whose state the macro all manages are main-actor bindings")
    func mainActorBindings() {
        let tally = MainActorTally()
        let binding = tally.bindings.count
        #expect(type(of: binding) as Any.Type == MainActorValueBinding<Int>.self)
        binding.value = 2
        #expect(tally.count == 2)
    }

    @Test("a nonisolated property of a @MainActor model is tracked and bound from any thread")
    func nonisolatedProperty() async {
        let counter = MainActorCounter()
        let doubled = Computed { counter.shared * 2 }
        // `counter.bindings` are main-actor bindings (the model is no `SendableModel`); an explicit
        // key path to a nonisolated property is checked `Sendable` by the compiler.
        let binding = ValueBinding(counter, \.shared)
        await Task.detached {
            binding.value += 1
            counter.shared += 1
        }.value
        #expect(doubled.value == 4)
    }
}
