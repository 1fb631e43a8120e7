import Foundation
import Ripple
@testable import RippleModels
import Testing

/// Issue 17, written as a DidUpdate user would.
@Suite struct DidUpdateMigrationTests {
    struct Size: Equatable, Codable, Sendable { var width = 0.0; var height = 0.0 }

    final class ViewModel: SendableModel, Codable, @unchecked Sendable {
        @Observed var frame = Size()
        @Observed var count = 0
        @Observed var selection: String?
        init() {}
    }

    @Test func persistedDidUpdateHearsEqualWritesWithoutSavingThemAgain() {
        let store = MemoryStore()
        let flag = Persisted("flag", default: false, store: store)
        let updates = Log<Bool>()
        let changes = Log<Bool>()
        let observers = [flag.didUpdate { updates.append($0) }, flag.didChange { changes.append($0) }]
        withExtendedLifetime(observers) {
            flag.value = true
            flag.value = true
        }
        #expect(updates.all == [true, true])
        #expect(changes.all == [true])
        #expect(store.writeCount == 1)
    }

    @Test func anOptionalPersistedNeedsNoDefault() {
        let store = MemoryStore()
        let token = Persisted<String?>("token", store: store)
        #expect(token.value == nil)
        token.value = "abc"
        #expect(Persisted<String?>("token", store: store).value == "abc")
    }

    @Test func observersOnAModelPropertysProjectedValue() {
        let model = ViewModel()
        let widths = Log<Double>()
        let updates = Log<Int>()
        let observers = [
            model.$frame.didChange(comparing: \.width) { _, new in widths.append(new.width) },
            model.$count.didUpdate { updates.append($0) },
        ]
        withExtendedLifetime(observers) {
            model.frame.height = 5
            model.frame.width = 3
            model.count = 0
        }
        #expect(widths.all == [3])
        #expect(updates.all == [0])  // the equal write is heard
        #expect(model.$frame.width.value == 3)
    }

    @Test func anOptionalObservedPropertyNeedsNoInitialValue() {
        let model = ViewModel()
        #expect(model.selection == nil)
        model.selection = "a"
        #expect(model.selection == "a")
    }

    @Test func aModelWithObservedPropertiesIsCodable() throws {
        let model = ViewModel()
        model.count = 3
        model.frame.width = 2
        let data = try JSONEncoder().encode(model)
        let decoded = try JSONDecoder().decode(ViewModel.self, from: data)
        #expect(decoded.count == 3)
        #expect(decoded.frame.width == 2)
        #expect(decoded.selection == nil)
        // Decoded properties are observable like any other.
        let seen = Log<Int>()
        let observer = decoded.$count.didChange { seen.append($0) }
        withExtendedLifetime(observer) { decoded.count = 4 }
        #expect(seen.all == [4])
    }
}

@Suite struct DidUpdateHandlerSpellingTests {
    struct Size: Equatable, Sendable { var width = 0.0; var height = 0.0 }

    @Test func theFullHandlerTellsTheCurrentCallApart() {
        let count = Stored(1)
        let updates = Log<String>()
        let changes = Log<String>()
        let observers = [
            count.didUpdate(withCurrent: true) { old, new, isCurrent in updates.append("\(old)→\(new) \(isCurrent)") },
            count.didChange(withCurrent: true) { old, new, isCurrent in changes.append("\(old)→\(new) \(isCurrent)") },
        ]
        withExtendedLifetime(observers) {
            count.value = 2
            count.value = 2
        }
        #expect(updates.all == ["1→1 true", "1→2 false", "2→2 false"])
        #expect(changes.all == ["1→1 true", "1→2 false"])
    }

    @Test func theHandlerLabel() {
        let count = Stored(1)
        let seen = Log<Int>()
        let observers = [
            count.didUpdate(handler: { seen.append($0) }),
            count.didChange(withCurrent: false, handler: { seen.append($0 * 10) }),
            count.didChange(handler: { _, new, _ in seen.append(new * 100) }),
        ]
        withExtendedLifetime(observers) { count.value = 2 }
        #expect(Set(seen.all) == [2, 20, 200])
    }

    @Test func comparingAKeyPathIntoAnOptional() {
        let frame = Stored<Size?>(nil)
        let seen = Log<Double?>()
        let observer = frame.didChange(comparing: \Size.width) { seen.append($0?.width) }
        withExtendedLifetime(observer) {
            frame.value = Size(width: 1)
            frame.value = Size(width: 1, height: 9)  // same width: quiet
            frame.value = nil
        }
        #expect(seen.all == [1, nil])
    }

    @Test func comparingAnArrayOfKeyPaths() {
        let size = Stored(Size())
        let seen = Log<String>()
        let observer = size.didChange(comparing: [\Size.width, \Size.height]) { old, new in
            seen.append("\(old.width),\(old.height)→\(new.width),\(new.height)")
        }
        withExtendedLifetime(observer) {
            size.value.width = 1
            size.value.height = 2
        }
        #expect(seen.all == ["0.0,0.0→1.0,0.0", "1.0,0.0→1.0,2.0"])
    }
}

@Suite struct DidUpdateCollectingAndProxyTests {
    final class Model: SendableModel, @unchecked Sendable {
        @Observed var count = 0
        @Observed var name = ""
        @Observed var street = ""
    }

    @Test func collectingObserversWithABuilderAndInASet() {
        let model = Model()
        let seen = Log<String>()
        var observers: [Subscription] = []
        observers.add {
            model.bindings.count.didChange { seen.append("count \($0)") }
            model.bindings.name.didChange { seen.append("name \($0)") }
        }
        var set: Set<Subscription> = []
        model.bindings.count.didUpdate { seen.append("set \($0)") }.add(to: &set)
        set.add { model.bindings.name.didUpdate { seen.append("set name \($0)") } }
        model.count = 1
        model.name = "a"
        #expect(observers.count == 2)
        #expect(set.count == 2)
        #expect(Set(seen.all) == ["count 1", "name a", "set 1", "set name a"])
        observers.removeAll()
        set.removeAll()
        model.count = 2
        #expect(seen.all.count == 4)
    }

    final class NameView: @unchecked Sendable {
        @ExternallyUpdating var name: String
        init(name: ValueBinding<String>) { _name = ExternallyUpdating(valueProxy: name) }
    }

    @Test func externallyUpdatingAsAPropertyWrapper() {
        let model = Model()
        let view = NameView(name: model.bindings.name)
        let heard = Log<String>()
        let observer = view.$name.didChange { heard.append($0) }
        withExtendedLifetime(observer) {
            view.name = "typed"  // own write: not echoed
            model.name = "elsewhere"  // heard
        }
        #expect(view.name == "elsewhere")
        #expect(heard.all == ["elsewhere"])
    }

    @Test func compoundOfFourAndAConstant() {
        let model = Model()
        let all = compound(
            model.bindings.count, model.bindings.name, model.bindings.street, ReadOnlyBinding(always: "NL"))
        let seen = Log<String>()
        let observer = all.didUpdate { count, name, street, country in
            seen.append("\(count) \(name) \(street) \(country)")
        }
        withExtendedLifetime(observer) {
            model.street = "Main"
        }
        #expect(seen.all == ["0  Main NL"])
        #expect(ReadOnlyBinding(always: 3).value == 3)
    }
}
