import Foundation
import Ripple
import Testing
@testable import RippleModels

/// A record whose `==` compares its identifier only, as a list's row model often does.
private struct Note: Codable, Equatable, Sendable {
    var id: Int
    var text: String
    static func == (lhs: Note, rhs: Note) -> Bool { lhs.id == rhs.id }
}

/// A model with `@Observed` properties of types that JSON coders encode in their own way.
private final class Attachment: SendableModel, Codable, @unchecked Sendable {
    @Observed var bytes = Data([1, 2, 3])
    @Observed var created = Date(timeIntervalSinceReferenceDate: 0)
    @Observed var link: URL? = URL(string: "https://example.com/a")
}

/// The same record without `@Observed`: what a model encoded before it adopted Ripple.
private struct PlainAttachment: Codable, Equatable {
    var bytes = Data([1, 2, 3])
    var created = Date(timeIntervalSinceReferenceDate: 0)
    var link: URL? = URL(string: "https://example.com/a")
}

@Suite("Persisted values saved exactly, and @Observed coding")
struct PersistedExactSavingTests {
    // MARK: Persisted: a write is never lost

    @Test("a value flushed inside a batch, then written back in that batch, is saved")
    func flushInsideBatchThenWriteBack() {
        let store = MemoryStore()
        let theme = Persisted("theme", default: "light", store: store)
        theme.value = "dark"  // saved at once (write-through store)
        batch {
            theme.value = "blue"
            theme.flush()  // saves "blue"
            theme.value = "dark"
        }
        #expect(theme.value == "dark")
        #expect(store.raw("theme") as? String == "dark")
        let reloaded = MemoryStore()
        reloaded.set(store.raw("theme"), forKey: "theme")
        #expect(Persisted("theme", default: "light", store: reloaded).value == "dark")
    }

    @Test("a Codable value that is == to the saved one but differs is saved")
    func equalButDifferentCodableValueIsSaved() throws {
        let store = MemoryStore()
        let note = Persisted("note", default: Note(id: 0, text: ""), store: store)
        note.value = Note(id: 1, text: "draft")
        note.value = Note(id: 1, text: "final")
        #expect(note.value.text == "final")
        let saved = try JSONDecoder().decode(Note.self, from: try #require(store.raw("note") as? Data))
        #expect(saved.text == "final")
    }

    @Test("a Codable value == to the stored one but different is saved over it")
    func equalButDifferentToLoadedValueIsSaved() throws {
        let store = MemoryStore()
        store.set(try JSONEncoder().encode(Note(id: 1, text: "old")), forKey: "note")
        let note = Persisted("note", default: Note(id: 0, text: ""), store: store)
        note.value = Note(id: 1, text: "new")
        let saved = try JSONDecoder().decode(Note.self, from: try #require(store.raw("note") as? Data))
        #expect(saved.text == "new")
    }

    @Test("a property-list value is saved exactly as written: -0.0, a string's scalars")
    func propertyListValueSavedExactly() {
        let store = MemoryStore()
        let level = Persisted("level", default: 1.0, store: store)
        level.value = 0.0
        level.value = -0.0
        #expect(level.value.sign == .minus)
        #expect((store.raw("level") as? Double)?.sign == .minus)

        let name = Persisted("name", default: "", store: store)
        name.value = "caf\u{E9}"  // precomposed
        name.value = "cafe\u{301}"  // decomposed: == to the first, other scalars
        #expect((store.raw("name") as? String).map { Array($0.unicodeScalars) } == Array("cafe\u{301}".unicodeScalars))
    }

    @Test("writing an equal value of a property-list type still does not store it again")
    func equalPropertyListWriteIsNotStoredAgain() {
        let store = MemoryStore()
        let count = Persisted("count", default: 0, store: store)
        count.value = 8
        count.value = 8
        let names = Persisted("names", default: [String](), store: store)
        names.value = ["a", "b"]
        names.value = ["a", "b"]
        #expect(store.writeCount == 2)
    }

    // MARK: @Observed and Codable

    @Test("@Observed properties encode as the plain properties do, with the encoder's strategies")
    func observedEncodesLikePlainProperty() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        let model = try String(decoding: encoder.encode(Attachment()), as: UTF8.self)
        let plain = try String(decoding: encoder.encode(PlainAttachment()), as: UTF8.self)
        #expect(model == plain)
    }

    @Test("@Observed properties decode what the plain properties encoded")
    func observedDecodesPlainEncoding() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let plain = PlainAttachment(
            bytes: Data([9, 8]),
            created: Date(timeIntervalSinceReferenceDate: 86_400),
            link: URL(string: "https://example.com/b")
        )
        let model = try decoder.decode(Attachment.self, from: encoder.encode(plain))
        #expect(model.bytes == plain.bytes)
        #expect(model.created == plain.created)
        #expect(model.link == plain.link)
    }

    // MARK: UserDefaults on Linux

    /// swift-corelibs-foundation writes `UserDefaults` as an XML property list, whose `<date>`
    /// holds whole seconds, so a date read back by the next process has lost its fraction
    /// (100.25 s → 100 s). It used to happen silently; the save now reports it
    /// (`PersistenceError.Kind.notKeptExactly`), in the process that wrote it.
    @Test("a date with a fraction of a second that UserDefaultsStore cannot keep is reported when saved")
    func subsecondDateIsReportedOrKept() async throws {
        let suite = "ripple.tests.review.\(UInt64.random(in: 0...UInt64.max))"
        await #expect(processExitsWith: .success) { [suite = suite as String] in
            let reports = _ReportedErrors()
            PersistenceError.handler = { reports.append($0) }
            let store = UserDefaultsStore(UserDefaults(suiteName: suite)!)
            let at = Persisted("at", default: Date(timeIntervalSinceReferenceDate: 0), store: store)
            at.value = Date(timeIntervalSinceReferenceDate: 100.25)
            at.flush()
            #if canImport(Darwin)
            let expected: [String] = []
            #else
            let expected = ["at"]
            #endif
            let reported = reports.all.filter { $0.kind == .notKeptExactly }.map(\.key)
            exit(reported == expected ? 0 : 1)
        }
        // Read by this process for the first time, so from disk.
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let at = Persisted("at", default: Date(timeIntervalSinceReferenceDate: 0), store: UserDefaultsStore(defaults))
        #if canImport(Darwin)
        #expect(at.value.timeIntervalSinceReferenceDate == 100.25)
        #else
        #expect(at.value.timeIntervalSinceReferenceDate == 100)
        #endif
    }
}

/// Errors passed to `PersistenceError.handler`, from any thread.
final class _ReportedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [PersistenceError] = []
    func append(_ error: PersistenceError) { lock.withLock { errors.append(error) } }
    var all: [PersistenceError] { lock.withLock { errors } }
}
