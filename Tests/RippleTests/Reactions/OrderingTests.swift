import Testing
@testable import Ripple

@Suite("Ordering of nested writes")
struct OrderingTests {
    @Test("a write inside a reaction reaches every later subscriber in order")
    func nestedWriteOrder() {
        let value = Stored(0)
        let log = Recorder<String>()
        let first = observe {
            let current = value.value
            log.append("first \(current)")
            if current == 1 { value.value = 2 }
        }
        let second = observe { log.append("second \(value.value)") }
        let third = value.onChange { old, new in log.append("third \(old)→\(new)") }
        log.removeAll()
        value.value = 1
        #expect(
            log.all == [
                "first 1", "second 1", "third 0→1",
                "first 2", "second 2", "third 1→2",
            ])
        _ = (first, second, third)
    }

    @Test("several writes inside one reaction are committed one round each, in order")
    func severalNestedWrites() {
        let trigger = Stored(0)
        let value = Stored(0)
        let seen = Recorder<Int>()
        let writer = observe {
            if trigger.value == 1 {
                value.value = 10
                value.value = 20
                value.value = 30
            }
        }
        let reader = observe { seen.append(value.value) }
        trigger.value = 1
        #expect(seen.all == [0, 10, 20, 30])
        _ = (writer, reader)
    }

    @Test("update inside a reaction applies to the committed value")
    func updateInsideReaction() {
        let trigger = Stored(0)
        let count = Stored(0)
        let writer = observe {
            if trigger.value > 0 {
                count.update { $0 += 1 }
                count.update { $0 += 1 }
            }
        }
        trigger.value = 1
        #expect(count.value == 2)
        _ = writer
    }

    @Test("a batch inside a reaction is committed as one round")
    func batchInsideReaction() {
        let trigger = Stored(0)
        let a = Stored(0)
        let b = Stored(0)
        let seen = Recorder<String>()
        let writer = observe {
            if trigger.value == 1 {
                batch {
                    a.value = 1
                    b.value = 1
                }
            }
        }
        let reader = observe { seen.append("\(a.value)\(b.value)") }
        trigger.value = 1
        #expect(seen.all == ["00", "11"])
        _ = (writer, reader)
    }

    @Test("a reaction that keeps re-triggering itself stops with a message naming the loop")
    func runawayMessage() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let value = Stored(0)
                let loop = observe { value.value = value.value + 1 }
                _ = loop
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("runaway reaction"))
        #expect(message.contains("OrderingTests.swift"))
    }

    @Test("a computed value that reads itself fails with a message naming the cycle")
    func selfCycle() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let holder = Cell<Computed<Int>?>(nil)
                let node = Computed(name: "selfish") { (holder.value?.value ?? 0) + 1 }
                holder.value = node
                _ = node.value
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("dependency cycle"))
        #expect(message.contains("'selfish' → Computed 'selfish'"))
    }

    @Test("a cycle through several computed values names each of them, in reading order")
    func longerCycle() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let holder = Cell<Computed<Int>?>(nil)
                let first = Computed(name: "first") { (holder.value?.value ?? 0) + 1 }
                let second = Computed(name: "second") { first.value + 1 }
                let third = Computed(name: "third") { second.value + 1 }
                holder.value = third
                _ = first.value
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Computed 'first' → Computed 'third' → Computed 'second' → Computed 'first'"))
    }

    @Test("a cycle through others names every node on it")
    func indirectCycle() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let holder = Cell<Computed<Int>?>(nil)
                let a = Computed(name: "a") { (holder.value?.value ?? 0) + 1 }
                let b = Computed(name: "b") { a.value + 1 }
                holder.value = b
                _ = b.value
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Computed 'b' → Computed 'a' → Computed 'b'"))
    }

    @Test("writing inside a derivation fails with a clear message")
    func writeInsideDerivation() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let target = Stored(0, name: "target")
                let writer = Computed(name: "writer") {
                    target.value = 1; return 0
                }
                _ = writer.value
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Stored 'target' was written while Computed 'writer' was being evaluated"))
    }

    @Test("writing inside untracked { } inside a derivation still fails with a clear message")
    func untrackedWriteInsideDerivation() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let target = Stored(0, name: "target")
                let writer = Computed(name: "writer") {
                    untracked { target.value = 1 }; return 0
                }
                _ = writer.value
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Stored 'target' was written while Computed 'writer' was being evaluated"))
    }

    @Test("writing inside a batch inside untracked { } inside a derivation fails too")
    func untrackedBatchWriteInsideDerivation() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let target = Stored(0, name: "target")
                let inner = Computed(name: "inner") {
                    untracked { batch { target.value = 2 } }; return 0
                }
                let outer = Computed(name: "outer") { inner.value + 1 }
                _ = outer.value
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Stored 'target' was written while Computed 'inner' was being evaluated"))
    }

    @Test("onCleanup outside a reaction fails with a clear message")
    func cleanupOutsideReaction() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                onCleanup {}
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("onCleanup was called outside a reaction"))
    }
}
