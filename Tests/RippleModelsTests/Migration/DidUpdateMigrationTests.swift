import Foundation
import Ripple
@testable import RippleModels
import Testing

/// Issue 17, written as a DidUpdate user would.
@Suite struct DidUpdateMigrationTests {
    struct Size: Equatable, Codable, Sendable { var width = 0.0; var height = 0.0 }

    final class ViewModel: ObservableModel, Codable, @unchecked Sendable {
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
        #expect(updates.all == [0])   // the equal write is heard
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
