import RippleStore
import Testing

/// Verge's `Edge`: a large value in the state, compared by version in O(1) instead of by value.
@Suite("State: Edge")
struct EdgeTests {
    /// Not `Equatable`: an `Edge` never compares the values it wraps.
    private struct Blob: Sendable {
        var bytes: [UInt8]
        var label = ""
    }

    private struct Document: Equatable, Sendable {
        var title = ""
        @Edge var blob = Blob(bytes: [])
        @Edge var rows: [Int] = []
    }

    @Test("a copy is equal; a mutation makes it differ, even one that leaves the same value")
    func equalityByVersion() {
        let original = Edge(wrappedValue: [1, 2, 3])
        var copy = original
        #expect(copy == original)
        copy.wrappedValue = [1, 2, 3]
        #expect(copy != original)
        #expect(copy.wrapped == [1, 2, 3])
    }

    @Test("two edges made apart are not equal, even with equal values")
    func distinctIdentities() {
        #expect(Edge(wrappedValue: 1) != Edge(wrappedValue: 1))
    }

    @Test("copies mutated apart never compare equal")
    func copiesMutatedApart() {
        let original = Edge(wrappedValue: [0])
        var a = original
        var b = original
        a.modify { $0.append(1) }
        b.modify { $0.append(2) }
        #expect(a != b)
        #expect(a != original)
    }

    @Test("every way to mutate moves the version: wrappedValue, wrapped, modify, dynamic member")
    func everyMutationMovesTheVersion() {
        var edge = Edge(wrappedValue: Blob(bytes: [0]))
        var versions: Set<UInt64> = [edge.version]
        edge.wrappedValue.bytes.append(1)
        versions.insert(edge.version)
        edge.wrapped.label = "a"
        versions.insert(edge.version)
        let count = edge.modify { blob -> Int in
            blob.bytes.append(2)
            return blob.bytes.count
        }
        versions.insert(edge.version)
        edge.label = "b"
        versions.insert(edge.version)
        #expect(versions.count == 5)
        #expect(count == 3)
        #expect(edge.bytes == [0, 1, 2])
        #expect(edge.label == "b")
    }

    @Test("reading does not move the version")
    func readsDoNotMoveTheVersion() {
        let edge = Edge(wrappedValue: Blob(bytes: [1, 2]))
        let version = edge.version
        _ = edge.wrapped.bytes
        _ = edge.wrappedValue.label
        _ = edge.bytes.count
        #expect(edge.version == version)
    }

    @Test("in a store: a commit that does not touch the edge leaves its readers alone")
    func inAStore() {
        let store = Store<Document, Never>(initialState: Document(rows: [1]))
        let rowsDelivered = Recorder<[Int]>()
        let subscription = store.sinkState { changes in
            changes.ifChanged(\.$rows) { rows in rowsDelivered.append(rows.wrapped) }
        }
        store.commit { $0.title = "renamed" }
        #expect(rowsDelivered.values == [[1]])
        store.commit { $0.rows.append(2) }
        #expect(rowsDelivered.values == [[1], [1, 2]])
        // Writing the same value counts as a change: the comparison never reads the value.
        store.commit { $0.rows = [1, 2] }
        #expect(rowsDelivered.values.count == 3)
        #expect(store.version == 3)
        _ = subscription
    }

    @Test("a derived value of an edge's projection runs only when the edge was mutated")
    func derivedOfEdge() {
        let store = Store<Document, Never>(initialState: Document())
        let runs = TDCounter()
        let size = store.derived(from: \.$blob) { blob in
            runs.increment()
            return blob.bytes.count
        }
        #expect(size.value == 0)
        store.commit { $0.title = "x" }
        #expect(size.value == 0)
        #expect(runs.value == 1)
        store.commit { $0.blob.bytes.append(9) }
        #expect(size.value == 1)
        #expect(runs.value == 2)
    }
}
