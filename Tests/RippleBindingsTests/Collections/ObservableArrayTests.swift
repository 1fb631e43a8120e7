import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct ObservableArrayTests {
    private func recording<Element>(_ array: ObservableArray<Element>) -> (Locked<[ListChanges]>, Subscription) {
        let seen = Locked<[ListChanges]>([])
        let subscription = array.didChangeElements { changes, _ in seen.mutate { $0.append(changes) } }
        return (seen, subscription)
    }

    @Test("each edit reports its insertions, removals, moves and updates")
    func edits() {
        let days = ObservableArray(["Mon", "Tue", "Wed"])
        let (seen, subscription) = recording(days)
        days.insert("Sun", at: 0)
        days.remove(at: 2)  // Tue
        days.move(from: 2, to: 0)  // Wed first
        days[1] = "Sunday"
        days.append("Thu")
        #expect(days.value == ["Wed", "Sunday", "Mon", "Thu"])
        #expect(
            seen.value == [
                ListChanges(insertions: [0]),
                ListChanges(deletions: [2]),
                ListChanges(moves: [.init(from: 2, to: 0)]),
                ListChanges(updates: [1]),
                ListChanges(insertions: [3]),
            ])
        withExtendedLifetime(subscription) {}
    }

    @Test("equal elements are told apart: removing one of two equal elements removes that one")
    func equalElements() {
        let items = ObservableArray(["x", "x", "x"])
        let (seen, subscription) = recording(items)
        items.remove(at: 1)
        #expect(seen.value == [ListChanges(deletions: [1])])
        withExtendedLifetime(subscription) {}
    }

    @Test("edits in one edit(_:) call, or one batch, are one change description")
    func batched() {
        let items = ObservableArray([1, 2, 3])
        let (seen, subscription) = recording(items)
        items.edit { edit in
            edit.remove(at: 0)
            edit.append(4)
            edit.move(from: 0, to: 2)
        }
        #expect(items.value == [3, 4, 2])
        #expect(seen.value.count == 1)
        #expect(applyAsTableView(seen.value[0], to: [1, 2, 3], reading: [3, 4, 2]) == [3, 4, 2])

        batch {
            items.append(5)
            items.remove(at: 0)
        }
        #expect(seen.value.count == 2)
        #expect(items.value == [4, 2, 5])
        #expect(seen.value[1] == ListChanges(deletions: [0], insertions: [2]))
        withExtendedLifetime(subscription) {}
    }

    @Test("a mutating call on the value of Equatable elements reports only what it changed")
    func mutatingTheValueIsPrecise() {
        let numbers = ObservableArray([1, 2, 3])
        let (seen, subscription) = recording(numbers)
        numbers.value.append(4)
        numbers.value.remove(at: 0)
        numbers.value.insert(9, at: 1)
        numbers.value = [2, 9, 3, 4, 5]
        #expect(numbers.value == [2, 9, 3, 4, 5])
        #expect(
            seen.value == [
                ListChanges(insertions: [3]),
                ListChanges(deletions: [0]),
                ListChanges(insertions: [1]),
                ListChanges(insertions: [4]),
            ])
        withExtendedLifetime(subscription) {}
    }

    @Test("assigning the value of Identifiable elements keeps their identity")
    func replaceIdentifiable() {
        let rows = ObservableArray([Row(id: 1, title: "a"), Row(id: 2, title: "b")])
        let (seen, subscription) = recording(rows)
        rows.edit { $0.replaceAll(with: [Row(id: 2, title: "b"), Row(id: 1, title: "A")]) }
        // One of the two moves (the fewest); 1 stays and is updated in place.
        #expect(seen.value == [ListChanges(moves: [.init(from: 1, to: 0)], updates: [0])])
        rows.edit { $0.replaceAll(with: [Row(id: 2, title: "B"), Row(id: 1, title: "A")]) }
        #expect(seen.value.last == ListChanges(updates: [0]))
        withExtendedLifetime(subscription) {}
    }

    @Test("willChange is called before the edit is applied, with the elements before and after")
    func willChange() {
        let items = ObservableArray([1])
        let seen = Locked<[String]>([])
        let subscription = items.willChange { old, new in
            seen.mutate { $0.append("\(old)→\(new) while \(items.value)") }
        }
        items.append(2)
        #expect(seen.value == ["[1]→[1, 2] while [1]"])
        withExtendedLifetime(subscription) {}
    }

    @Test("a willChange handler added in a scope's run ends with the scope, as Stored's does")
    func willChangeOwnedByScope() {
        let items = ObservableArray([1])
        let calls = Locked(0)
        let scope = ReactionScope()
        let subscription = scope.run { items.willChange { _, _ in calls.mutate { $0 += 1 } } }
        items.append(2)
        scope.cancel()
        items.append(3)
        #expect(calls.value == 1)
        let late = scope.run { items.willChange { _, _ in calls.mutate { $0 += 1 } } }
        items.append(4)
        #expect(calls.value == 1, "a handler added in a cancelled scope is never called")
        withExtendedLifetime((subscription, late)) {}
    }

    @Test("a mutating call on the value reports what the same call through edit(_:) reports")
    func valueMutationMatchesEdit() {
        let calls: [(edit: @Sendable (inout ArrayEdit<Int>) -> Void, value: @Sendable (inout [Int]) -> Void)] = [
            ({ $0[1] = 9 }, { $0[1] = 9 }),
            ({ $0.append(4) }, { $0.append(4) }),
            ({ _ = $0.remove(at: 0) }, { _ = $0.remove(at: 0) }),
            ({ $0.insert(0, at: 1) }, { $0.insert(0, at: 1) }),
            (
                {
                    $0[0] = 7; $0[2] = 8
                },
                {
                    $0[0] = 7; $0[2] = 8
                }
            ),
            ({ $0.removeAll() }, { $0.removeAll() }),
        ]
        for call in calls {
            let viaEdit = ObservableArray([1, 2, 3])
            let viaValue = ObservableArray([1, 2, 3])
            let fromEdit = Locked<[ListChanges]>([])
            let fromValue = Locked<[ListChanges]>([])
            let s1 = viaEdit.didChangeElements { changes, _ in fromEdit.mutate { $0.append(changes) } }
            let s2 = viaValue.didChangeElements { changes, _ in fromValue.mutate { $0.append(changes) } }
            viaEdit.edit { call.edit(&$0) }
            call.value(&viaValue.value)
            #expect(viaValue.value == viaEdit.value)
            #expect(fromValue.value == fromEdit.value, "after \(viaEdit.value)")
            withExtendedLifetime((s1, s2)) {}
        }
    }

    @Test("reads are tracked like a Stored's")
    func tracked() {
        let items = ObservableArray([1, 2])
        let total = Computed { items.value.reduce(0, +) }
        #expect(total.value == 3)
        items.append(3)
        #expect(total.value == 6)
        #expect(items.count == 3)
    }

    @Test("an index out of range stops the program with a message naming the call and the range")
    func outOfRange() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ObservableArray([1, 2]).remove(at: 5)
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("remove(at:): index 5 is out of range 0..<2"))
    }

    @Test("a Stored array of Identifiable elements reports its changes by diff")
    func storedIdentifiable() {
        let rows = Stored([Row(id: 1, title: "a"), Row(id: 2, title: "b")])
        let seen = Locked<[ListChanges]>([])
        let subscription = rows.didChangeElements(withCurrent: true) { changes, _ in seen.mutate { $0.append(changes) }
        }
        #expect(seen.value == [ListChanges(insertions: [0, 1])])
        rows.value = [Row(id: 2, title: "b"), Row(id: 3, title: "c"), Row(id: 1, title: "a!")]
        #expect(seen.value.last == ListChanges(insertions: [1], moves: [.init(from: 1, to: 0)], updates: [0]))
        rows.value.append(Row(id: 4, title: "d"))
        #expect(seen.value.last == ListChanges(insertions: [3]))
        withExtendedLifetime(subscription) {}
    }

    @Test(
        "property: random edits of an observable array, applied as a table view would, rebuild it",
        arguments: 0..<100
    )
    func randomEdits(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 1000)
        let items = ObservableArray((0..<Int.random(in: 0..<20, using: &generator)).map { "\($0)" })
        let shown = Locked(items.value)
        let broken = Locked(false)
        let subscription = items.didChangeElements { changes, elements in
            guard let applied = applyAsTableView(changes, to: shown.value, reading: elements), applied == elements
            else {
                broken.value = true
                return
            }
            shown.value = applied
        }
        for step in 0..<20 {
            items.edit { edit in
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: edit.insert("n\(step)", at: Int.random(in: 0...edit.count, using: &generator))
                    case 1 where edit.count > 0: edit.remove(at: Int.random(in: 0..<edit.count, using: &generator))
                    case 2 where edit.count > 0: edit[Int.random(in: 0..<edit.count, using: &generator)] += "'"
                    case 3 where edit.count > 0:
                        edit.move(
                            from: Int.random(in: 0..<edit.count, using: &generator),
                            to: Int.random(in: 0..<edit.count, using: &generator))
                    default: break
                    }
                }
            }
        }
        #expect(!broken.value)
        #expect(shown.value == items.value)
        withExtendedLifetime(subscription) {}
    }

    @Test("inside a reaction, edits in one batch are one change; edits made one by one are one each")
    func editsInsideAReaction() {
        let array = ObservableArray([1, 2, 3])
        let (seen, subscription) = recording(array)
        let step = Stored(0)
        let reaction = observe {
            switch step.value {
            case 1:
                batch {
                    array.append(10)
                    array.remove(at: 0)
                }
            case 2:
                array.append(20)
                array.remove(at: 0)
            default: break
            }
        }
        step.value = 1
        #expect(seen.value.count == 1)
        #expect(array.value == [2, 3, 10])
        step.value = 2
        #expect(seen.value.count == 3)
        #expect(array.value == [3, 10, 20])
        withExtendedLifetime((subscription, reaction)) {}
    }
}
