import Foundation
import Ripple
import Testing
@testable import RippleModels

/// A value a `Persisted` saved that its store cannot keep exactly is reported
/// (`PersistenceError.Kind.notKeptExactly`), never converted silently.
@Suite("Persisted values a store cannot keep exactly")
struct PersistedExactnessTests {
    /// A store that keeps dates to the whole second, as `UserDefaults`' XML file on Linux does.
    static func wholeSeconds(_ object: Any) -> Any {
        if let date = object as? Date {
            return Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down))
        }
        if let dates = object as? [Date] { return dates.map(wholeSeconds) }
        return object
    }

    @Test("a date the store keeps to the second is saved and reported, with its key and kind")
    func reportsWhatTheStoreCannotKeep() {
        let store = MemoryStore(keeps: Self.wholeSeconds)
        let at = Persisted("at", default: Date(timeIntervalSinceReferenceDate: 0), store: store)
        at.value = Date(timeIntervalSinceReferenceDate: 100.25)
        #expect(store.reportedWrites.count == 1)
        let error = store.reportedWrites.first
        #expect(error?.kind == .notKeptExactly)
        #expect(error?.key == "at")
        #expect(error?.expectedType == "Date")
        #expect(error?.description.contains("cannot keep the Date exactly") == true)
        // Saved anyway (the closest form the store keeps); the value in memory stays exact.
        #expect(store.raw("at") is Date)
        #expect(at.value.timeIntervalSinceReferenceDate == 100.25)
        #expect(store.reported.isEmpty)
    }

    @Test("a value the store keeps exactly is not reported, nor is one inside an array that it keeps")
    func keptValuesAreNotReported() {
        let store = MemoryStore(keeps: Self.wholeSeconds)
        let at = Persisted("at", default: Date(timeIntervalSinceReferenceDate: 0), store: store)
        at.value = Date(timeIntervalSinceReferenceDate: 100)
        let dates = Persisted("dates", default: [Date](), store: store)
        dates.value = [Date(timeIntervalSinceReferenceDate: 5)]
        #expect(store.reportedWrites.isEmpty)
        dates.value = [Date(timeIntervalSinceReferenceDate: 5), Date(timeIntervalSinceReferenceDate: 6.5)]
        #expect(store.reportedWrites.map(\.key) == ["dates"])
    }

    @Test("-0.0 written as 0 is reported; a Float widened to a Double is kept exactly")
    func numbers() {
        let store = MemoryStore { object in
            if let number = object as? Double { return number == 0 ? 0.0 : number }
            if let number = object as? Float { return Double(number) }
            return object
        }
        let offset = Persisted("offset", default: 1.0, store: store)
        offset.value = -0.0
        let scale = Persisted("scale", default: Float(1), store: store)
        scale.value = 0.1
        #expect(store.reportedWrites.map(\.key) == ["offset"])
    }

    /// A property-list type of the app's own: the comparison does not know it, so it is not
    /// reported (rather than reported on every save).
    struct Tag: PropertyListValue, Equatable {
        var name: String
        static func _fromPropertyList(_ object: Any) -> Tag? { (object as? String).map(Tag.init(name:)) }
        init(name: String) { self.name = name }
        init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }
    }

    @Test("a value of a property-list type the comparison does not know is not reported")
    func unknownTypesAreNotReported() {
        let store = MemoryStore { _ in "something else" }
        let tag = Persisted("tag", default: Tag(name: "a"), store: store)
        tag.value = Tag(name: "b")
        #expect(store.reportedWrites.isEmpty)
    }

    #if !canImport(Darwin)
    @Test("UserDefaultsStore on Linux: what the XML file keeps (dates to the second, -0.0 as 0)")
    func userDefaultsStoredForm() throws {
        let store = UserDefaultsStore(try #require(UserDefaults(suiteName: "ripple.tests.exactness")))
        let date = store.storedForm(of: Date(timeIntervalSinceReferenceDate: 100.25)) as? Date
        #expect(date?.timeIntervalSinceReferenceDate == 100)
        let zero = try #require(store.storedForm(of: -0.0) as? NSNumber)
        #expect(zero.doubleValue.sign == .plus)
        #expect((store.storedForm(of: 0.1) as? NSNumber)?.doubleValue == 0.1)
        #expect(store.storedForm(of: "é") as? String == "é")
    }
    #endif
}
