import Testing
import Foundation
@testable import RippleStore

struct SHScreenState: Equatable, Sendable {
    @Triggered var alert: String? = nil
    @Triggered var items: [Int] = []
    @Ignored var scrollOffset = 0.0
    var title = ""
}

struct SHComment: Equatable, Sendable, Codable {
    var text: String
    @CopyOnWrite var reply: SHComment?
}

/// A value that counts its copies (through its class member's reference count is not
/// observable; count the explicit copies the wrapper makes instead, by identity).
struct SHLarge: Equatable, Sendable {
    var numbers = Array(0..<1_000)
}

struct SHDocumentState: Equatable, Sendable {
    @CopyOnWrite var document = SHLarge()
    var other = 0
}

final class SHRecorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}

@Suite struct TriggeredTests {
    @Test func everyAssignmentIsPublishedEvenOfAnEqualValue() {
        let store = Store<SHScreenState, Never>(initialState: SHScreenState())
        let alerts = SHRecorder<String?>()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            changes.ifChanged(\.$alert) { alert in alerts.append(alert.wrappedValue) }
        }
        withExtendedLifetime(subscription) {
            store.commit { $0.alert = "Saved" }
            store.commit { $0.alert = "Saved" }
            store.commit { $0.title = "unrelated" }
        }
        #expect(alerts.values == ["Saved", "Saved"])
        #expect(store.version == 3)
    }

    @Test func inPlaceChangesCountAsAssignments() {
        var state = SHScreenState()
        let before = state
        state.items.append(1)
        #expect(state != before)
        #expect(state.$items.generation == 1)
        let again = state
        state.items = [1]
        #expect(state != again)
    }

    @Test func aPlainPropertyWouldNotBePublished() {
        struct Plain: Equatable, Sendable { var alert: String? }
        let store = Store<Plain, Never>(initialState: Plain())
        store.commit { $0.alert = "Saved" }
        store.commit { $0.alert = "Saved" }
        #expect(store.version == 1)
    }

    @Test func codableEncodesTheValueOnly() throws {
        let data = try JSONEncoder().encode(Triggered(wrappedValue: 5))
        #expect(String(decoding: data, as: UTF8.self) == "5")
        #expect(try JSONDecoder().decode(Triggered<Int>.self, from: data).wrappedValue == 5)
    }
}

@Suite struct IgnoredTests {
    @Test func aChangeToAnIgnoredPropertyPublishesNothingAndIsKept() {
        let store = Store<SHScreenState, Never>(initialState: SHScreenState())
        let deliveries = SHRecorder<UInt64>()
        let subscription = store.sinkState(dropsFirst: true) { deliveries.append($0.version) }
        withExtendedLifetime(subscription) {
            store.commit { $0.scrollOffset = 240 }
        }
        #expect(deliveries.values.isEmpty)
        #expect(store.version == 0)
        // The write the caller made is not lost.
        #expect(store.currentState.scrollOffset == 240)
        #expect(store.state.scrollOffset == 240)
    }

    @Test func equalityAndHashingIgnoreIt() {
        let a = Ignored(wrappedValue: 1)
        let b = Ignored(wrappedValue: 2)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    @Test func copiesShareTheValue() {
        let state = SHScreenState()
        let copy = state
        state.scrollOffset = 10
        #expect(copy.scrollOffset == 10)
    }
}

@Suite struct CopyOnWriteTests {
    @Test func valueSemantics() {
        var state = SHDocumentState()
        let before = state
        state.document.numbers[0] = -1
        #expect(before.document.numbers[0] == 0)
        #expect(state.document.numbers[0] == -1)
        #expect(state != before)
    }

    @Test func aSharedBoxIsCopiedOnceAndAUniqueOneNever() {
        var value = CopyOnWrite(wrappedValue: SHLarge())
        let shared = value
        #expect(value.sharesStorage(with: shared))
        #expect(value == shared)
        value.wrappedValue.numbers[0] = 1  // shared: copied
        #expect(!value.sharesStorage(with: shared))
        #expect(shared.wrappedValue.numbers[0] == 0)
        let identity = value._storageIdentity
        value.wrappedValue.numbers[1] = 2  // unique now: changed in place
        value.wrappedValue = SHLarge()
        value.wrappedValue.numbers.append(1)
        #expect(value._storageIdentity == identity)
    }

    @Test func aRecursiveListOf10000Nodes() throws {
        var head: SHComment? = nil
        for index in 0..<10_000 {
            head = SHComment(text: "\(index)", reply: head)
        }
        let copy = head
        #expect(copy == head)
        head?.reply?.text = "changed"
        #expect(copy != head)
        #expect(copy?.reply?.text == "9998")
        let data = try JSONEncoder().encode(SHComment(text: "a", reply: SHComment(text: "b", reply: nil)))
        let decoded = try JSONDecoder().decode(SHComment.self, from: data)
        #expect(decoded.reply?.text == "b")
        // Release iteratively, so a long chain does not recurse through every deinit at once.
        while let next = head?.reply { head = next }
    }

    @Test func insideAStoreCommitWithIfChanged() {
        let store = Store<SHDocumentState, Never>(initialState: SHDocumentState())
        let seen = SHRecorder<Int>()
        let subscription = store.sinkState(dropsFirst: true) { changes in
            changes.ifChanged(\.document) { seen.append($0.numbers[0]) }
        }
        withExtendedLifetime(subscription) {
            store.commit { $0.other = 1 }  // shares the box: ifChanged is quiet
            store.commit { $0.document.numbers[0] = 5 }
        }
        #expect(seen.values == [5])
    }
}

/// The wrappers encode and decode their value as a plain property does: through a single-value
/// container, so the coder's strategies for `Data` and `Date` apply (a `Data` is base64 in
/// JSON, a `Date` follows `dateEncodingStrategy`), and a state written before a property was
/// wrapped still decodes.
@Suite struct WrapperCodingTests {
    struct Plain: Codable, Equatable {
        var bytes = Data([1, 2, 3])
        var when = Date(timeIntervalSinceReferenceDate: 0)
        var note = Data([4])
    }

    struct Wrapped: Codable, Equatable {
        @CopyOnWrite var bytes = Data([1, 2, 3])
        @Triggered var when = Date(timeIntervalSinceReferenceDate: 0)
        @Ignored var note = Data([4])
    }

    static func coders() -> (JSONEncoder, JSONDecoder) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (encoder, decoder)
    }

    @Test("CopyOnWrite, Triggered and Ignored encode with the encoder's strategies, as a plain property does")
    func encodesAsAPlainProperty() throws {
        let (encoder, _) = Self.coders()
        let json = String(decoding: try encoder.encode(Wrapped()), as: UTF8.self)
        #expect(json == #"{"bytes":"AQID","note":"BA==","when":"2001-01-01T00:00:00Z"}"#)
    }

    @Test("CopyOnWrite, Triggered and Ignored decode what plain properties encoded")
    func decodesAPlainPropertysEncoding() throws {
        let (encoder, decoder) = Self.coders()
        let plain = try encoder.encode(
            Plain(bytes: Data([9, 8]), when: Date(timeIntervalSinceReferenceDate: 86_400), note: Data([7])))
        let wrapped = try decoder.decode(Wrapped.self, from: plain)
        #expect(wrapped.bytes == Data([9, 8]))
        #expect(wrapped.note == Data([7]))
        #expect(wrapped.when == Date(timeIntervalSinceReferenceDate: 86_400))
    }
}
