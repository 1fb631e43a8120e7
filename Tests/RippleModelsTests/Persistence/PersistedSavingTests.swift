import Foundation
import Ripple
import Testing
@testable import RippleModels

/// A model with one persisted property in a store of the test's choosing.
private final class VolumeModel: SendableModel, @unchecked Sendable {
    @Persisted var volume: Double
    init(store: any KeyValueStore) {
        _volume = Persisted(wrappedValue: 0.5, "volume", store: store)
    }
}

/// A thread-safe optional reference, for releasing a value from inside a handler.
private final class Holder<Object: AnyObject>: @unchecked Sendable {
    private let lock = _Lock()
    private var stored: Object?
    init(_ object: Object?) { stored = object }
    var object: Object? {
        get { lock.withLock { stored } }
        set {
            let old = lock.withLock {
                defer { stored = newValue }; return stored
            }; _ = old
        }
    }
}

/// A document that records, for each encoding and decoding, whether the graph's lock was held
/// (used by one test only).
private struct ProbedDocument: Codable, Equatable, Sendable {
    var items: [Int]
    static let encodings = Log<Bool>()
    static let decodings = Log<Bool>()

    init(items: [Int]) { self.items = items }

    init(from decoder: any Decoder) throws {
        Self.decodings.append(_graph.lock.isHeldForTesting)
        items = try [Int](from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        Self.encodings.append(_graph.lock.isHeldForTesting)
        try items.encode(to: encoder)
    }
}

/// A document that counts its encodings (used by one test only, so the count is its own).
private struct CountedDocument: Codable, Equatable, Sendable {
    var items: [Int]
    static let encodings = Log<Bool>()

    init(items: [Int]) { self.items = items }

    init(from decoder: any Decoder) throws {
        items = try [Int](from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        Self.encodings.append(_graph.lock.isHeldForTesting)
        try items.encode(to: encoder)
    }
}

@Suite("Persisted values: saving")
struct PersistedSavingTests {
    // MARK: A committed value always reaches the store (issue 9, item 4)

    @Test("a Persisted released in the batch that wrote it still saves the value")
    func releasedInsideBatch() {
        let store = MemoryStore()
        var model: VolumeModel? = VolumeModel(store: store)
        batch {
            model!.volume = 42
            model = nil
        }
        #expect(store.raw("volume") as? Double == 42)
    }

    @Test("a Persisted released in the reaction that wrote it still saves the value")
    func releasedInsideReaction() {
        let store = MemoryStore()
        let holder = Holder(Persisted("count", default: 0, store: store))
        let trigger = Stored(0)
        let reaction = trigger.didChange { _ in
            holder.object?.value = 7  // queued after this round
            holder.object = nil  // released before the queued write runs
        }
        trigger.value = 1
        #expect(store.raw("count") as? Int == 7)
        reaction.cancel()
    }

    @Test("releasing the last Persisted saves a pending value at once, whatever the store's schedule")
    func releaseFlushes() {
        let store = MemoryStore(saving: .manually)
        var model: VolumeModel? = VolumeModel(store: store)
        model!.volume = 0.8
        #expect(store.raw("volume") == nil, "the save waits for the store")
        model = nil
        #expect(store.raw("volume") as? Double == 0.8)
        #expect(store.synchronizeCount == 1)
        store.runPendingSaves()  // the scheduled save finds nothing left to do
        #expect(store.writeCount == 1)
    }

    // MARK: Write-behind, outside the lock (issue 9, item 6)

    @Test("writes are saved behind: one encoding and one store write for many writes, none on the writer")
    func savesAreCoalesced() {
        let store = MemoryStore(saving: .manually)
        let document = Persisted("document", default: CountedDocument(items: []), store: store)
        let before = CountedDocument.encodings.count
        for item in 0..<100 { document.value.items.append(item) }
        #expect(document.value.items.count == 100, "memory has every write at once")
        #expect(CountedDocument.encodings.count == before, "no write encodes")
        #expect(store.writeCount == 0)
        #expect(store.pendingSaveCount == 1, "one save is scheduled for all the writes")
        store.runPendingSaves()
        #expect(CountedDocument.encodings.count == before + 1)
        #expect(store.writeCount == 1)
        let reloaded = Persisted("document", default: CountedDocument(items: []), store: store)
        #expect(reloaded.value.items.count == 100)
    }

    @Test("flush() saves the pending value at once and synchronizes the store")
    func explicitFlush() {
        let store = MemoryStore(saving: .manually)
        let count = Persisted("count", default: 0, store: store)
        batch {
            count.value = 1
            count.value = 2
            count.flush()  // inside the batch: its own writes are seen
        }
        #expect(store.raw("count") as? Int == 2)
        #expect(store.synchronizeCount == 1)
        count.value = 3
        count.flush()
        #expect(store.raw("count") as? Int == 3)
        #expect(store.writeCount == 2)
        store.runPendingSaves()
        #expect(store.writeCount == 2, "the scheduled saves had nothing left to write")
    }

    @Test("the first read loads and decodes with the graph's lock released; saves encode with it released")
    func decodesAndEncodesOutsideTheLock() throws {
        let store = MemoryStore()
        store.set(try JSONEncoder().encode(ProbedDocument(items: [1, 2, 3])), forKey: "document")
        let document = Persisted("document", default: ProbedDocument(items: []), store: store)
        let decodings = ProbedDocument.decodings.count
        let seen = Log<Int>()
        let reaction = observe { seen.append(document.value.items.count) }  // first read, in a reaction
        #expect(seen.all == [3])
        #expect(ProbedDocument.decodings.count == decodings + 1)
        #expect(!ProbedDocument.decodings.all[decodings...].contains(true), "decoded with the graph's lock held")
        #expect(!store.wasCalledUnderGraphLock, "the store was read with the graph's lock held")
        let encodings = ProbedDocument.encodings.count
        document.value.items.append(4)
        #expect(seen.all == [3, 4])
        #expect(ProbedDocument.encodings.count == encodings + 1)
        #expect(!ProbedDocument.encodings.all[encodings...].contains(true), "encoded with the graph's lock held")
        #expect(!store.wasCalledUnderGraphLock)
        reaction.cancel()
    }

    @Test("a value read first outside any reaction is loaded with the graph's lock released")
    func plainFirstRead() {
        let store = MemoryStore()
        store.set([1, 2, 3], forKey: "list")
        let list = Persisted("list", default: [Int](), store: store)
        #expect(list.value == [1, 2, 3])
        #expect(!store.wasCalledUnderGraphLock)
    }

    @Test("concurrent writers through several Persisted for one key: the store ends with the last value")
    func concurrentWritersLoseNothing() async {
        let store = MemoryStore()
        let views = (0..<4).map { _ in Persisted("counter", default: 0, store: store) }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for iteration in 0..<300 {
                        views[worker].value = worker * 1_000 + iteration
                        if iteration % 50 == 0 { views[worker].flush() }
                    }
                }
            }
        }
        let final = views[0].value
        #expect(views.allSatisfy { $0.value == final }, "every Persisted for the key is one value")
        #expect(store.raw("counter") as? Int == final)
        #expect(final % 1_000 == 299)
    }

    @Test("compound assignments through several Persisted for one key, from many threads, lose nothing")
    func concurrentIncrements() {
        let store = MemoryStore()
        let views = (0..<4).map { _ in Persisted("increments", default: 0, store: store) }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in 0..<250 { views[worker % 4].value += 1 }
        }
        #expect(views.allSatisfy { $0.value == 2_000 })
        views[0].flush()
        #expect(store.raw("increments") as? Int == 2_000)
    }

    // MARK: RawRepresentable values

    enum Theme: String, Sendable { case light, dark }
    enum Size: Int, Codable, Sendable { case small = 1, large = 2 }

    @Test("RawRepresentable values are stored as their raw value, like @AppStorage")
    func rawRepresentable() {
        let store = MemoryStore()
        let theme = Persisted("theme", default: Theme.light, store: store)
        theme.value = .dark
        #expect(store.raw("theme") as? String == "dark")
        let size = Persisted("size", default: Size.small, store: store)  // Codable too: still its raw value
        size.value = .large
        #expect(store.raw("size") as? Int == 2)
        store.set("purple", forKey: "other theme")
        #expect(Persisted("other theme", default: Theme.light, store: store).value == .light)
        #expect(store.reported.map(\.key) == ["other theme"])
    }
}
