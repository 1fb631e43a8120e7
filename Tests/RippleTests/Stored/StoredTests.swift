import Testing
@testable import Ripple

@Suite("Stored")
struct StoredTests {
    @Test("holds and updates its value")
    func holdsValue() {
        let count = Stored(1)
        #expect(count.value == 1)
        count.value = 2
        #expect(count.value == 2)
    }

    @Test("an equal write changes nothing and notifies nobody")
    func equalWriteIsIgnored() {
        let count = Stored(1)
        let runs = Counter()
        let subscription = observe {
            _ = count.value; runs.increment()
        }
        #expect(runs.value == 1)
        count.value = 1
        #expect(runs.value == 1)
        count.value = 2
        #expect(runs.value == 2)
        count.value = 2
        #expect(runs.value == 2)
        subscription.cancel()
    }

    @Test("a non-Equatable value notifies on every write")
    func nonEquatableNotifiesAlways() {
        struct Opaque: Sendable { var id: Int }
        let value = Stored(Opaque(id: 1))
        let runs = Counter()
        let subscription = observe {
            _ = value.value; runs.increment()
        }
        value.value = Opaque(id: 1)
        value.value = Opaque(id: 1)
        #expect(runs.value == 3)
        subscription.cancel()
    }

    @Test("a non-Equatable value with an equality notifies only on change")
    func customEquality() {
        struct Opaque: Sendable { var id: Int; var noise: Int }
        let value = Stored(Opaque(id: 1, noise: 0), equals: { $0.id == $1.id })
        let runs = Counter()
        let subscription = observe {
            _ = value.value; runs.increment()
        }
        value.value = Opaque(id: 1, noise: 9)
        #expect(runs.value == 1)
        value.value = Opaque(id: 2, noise: 9)
        #expect(runs.value == 2)
        subscription.cancel()
    }

    @Test("update mutates in place and notifies once")
    func updateInPlace() {
        let items = Stored([1, 2])
        let seen = Recorder<[Int]>()
        let subscription = observe { seen.append(items.value) }
        items.update { $0.append(3) }
        #expect(seen.all == [[1, 2], [1, 2, 3]])
        subscription.cancel()
    }

    @Test("writeCount counts every write, equal ones included, and readers of it hear each one")
    func writeCountTracksEveryWrite() {
        let name = Stored("Ada")
        let counts = Recorder<Int>()
        let values = Recorder<String>()
        let countReader = observe { counts.append(name.writeCount) }
        let valueReader = observe { values.append(name.value) }
        name.value = "Ada"
        name.value = "Bob"
        batch {
            name.value = "Bob"; name.value = "Bob"
        }
        #expect(counts.all == [0, 1, 2, 4])
        #expect(values.all == ["Ada", "Bob"])
        countReader.cancel()
        valueReader.cancel()
    }

    @Test("a write from inside a value's equality check fails with a message naming both values")
    func writeInsideEqualityCheck() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let other = Stored(0, name: "other")
                let box = Stored(
                    1, name: "box",
                    equals: { a, b in
                        other.value = 1
                        return a == b
                    })
                box.value = 2
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Stored 'other' was written while the equality check of Stored 'box' was running"))
    }
}
