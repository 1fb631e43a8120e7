#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Ripple
import _RippleRef

// The primitives that hold the core's unsafe code (issue 40 item 2: `_StaticText`,
// `_Ref(bitPattern:)`, `_OnceReferenceBuffer`, `_ValueStorage`, `_StoredNode`, `_CachingNode`,
// `_MainActorOwned`), through what uses them: each test pins a behaviour that moving the code
// into them could have broken.

/// Counts instances alive, per test (tests run in parallel).
private final class LiveCount: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var made = 0
    private var freed = 0
    init() { pthread_mutex_init(&lock, nil) }
    func make() { pthread_mutex_lock(&lock); made += 1; pthread_mutex_unlock(&lock) }
    func free() { pthread_mutex_lock(&lock); freed += 1; pthread_mutex_unlock(&lock) }
    var live: Int { pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }; return made - freed }
    var freedCount: Int { pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }; return freed }
}

private final class Token: @unchecked Sendable {
    let count: LiveCount
    let id: Int
    init(_ count: LiveCount, _ id: Int) { self.count = count; self.id = id; count.make() }
    deinit { count.free() }
}

/// A value that fits the sole write's storage and holds a counted reference.
private struct Small { var token: Token; var pad = 0 }
/// Exactly the storage's capacity (64 bytes).
private struct Exact { var token: Token; var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0 }
/// One byte too large: staged at once.
private struct Large { var token: Token; var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0; var h: UInt8 = 0 }
/// 16-byte alignment (the storage's strictest).
private struct Aligned { var token: Token; var vector = SIMD4<Float>(1, 2, 3, 4) }

private final class OnceBox: _OnceReferenceBuffer<Int, Token> {}

@Suite("Unsafe primitives")
struct UnsafePrimitivesTests {
    // MARK: origins

    @Test("an origin's file text: empty, non-ASCII, long, packed, boxed and nameable-later")
    func originText() {
        let long: StaticString =
            "Module/AVeryLongFileNameThatGoesOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOn.swift"
        let cases: [(StaticString, String)] = [
            ("", ""),
            ("Mödülé/Fïlé✓🙂.swift", "Mödülé/Fïlé✓🙂.swift"),
            (long, "\(long)"),
            ("ab", "ab"),
        ]
        for (literal, text) in cases {
            for line: UInt in [1, 1 << 15 - 1, 1 << 15, UInt(UInt32.max)] {
                let origin = _Origin(name: nil, fileID: literal, line: line)
                #expect(origin.fileID == text)
                let storage = _OriginStorage(origin)
                #expect(storage.origin.fileID == text, "stored at line \(line)")
                #expect(storage.origin.line == line)
                #expect(storage.origin.description == "(\(text):\(line))")
                let late = _OriginStorage(nameableLater: origin)
                #expect(late.origin.fileID == text)
                late.giveName(nil)
                #expect(late.origin.fileID == text)
                #expect(late.origin.name == nil)
                let node = Stored(0, name: nil, comparingWith: nil, file: literal, line: line)
                #expect(node.origin.fileID == text)
                let nameable = Stored(0, nameableLaterComparingWith: nil, file: literal, line: line)
                nameable._giveName("n")
                #expect(nameable.origin.fileID == text)
                #expect(nameable.origin.name == "n")
            }
        }
    }

    @Test("a late name given from many threads at once: one wins, all see it, losers freed")
    func lateNameFromManyThreads() {
        for _ in 0..<200 {
            let node = Stored(0, nameableLaterComparingWith: nil, file: #fileID, line: 7)
            let seen = Recorder<String>()
            runOnThreads(4) { thread in
                node._giveName("name\(thread)")
                seen.append(node.origin.name ?? "none")
            }
            let names = Set(seen.all)
            #expect(names.count == 1, "every thread sees the first name")
            #expect(names.first?.hasPrefix("name") == true)
            #expect(!node._awaitsName)
            #expect(node.origin.fileID == #fileID)
        }
    }

    @Test("_OnceReferenceBuffer: first publish wins, losers released at once, winner with the buffer")
    func onceReferenceBuffer() {
        for _ in 0..<200 {
            let count = LiveCount()
            var buffer: OnceBox? = OnceBox.make(header: 5)
            let shared = Cell<OnceBox?>(buffer)
            let wins = Counter()
            runOnThreads(4) { thread in
                if shared.value!.publish(Token(count, thread)) { wins.increment() }
                _ = shared.value!.published
            }
            #expect(wins.value == 1)
            #expect(buffer!.isPublished)
            #expect(buffer!.header == 5)
            #expect(count.live == 1, "the losers' objects were released")
            let winner = buffer!.published!.id
            #expect((0..<4).contains(winner))
            #expect(buffer!.publish(Token(count, 9)) == false)
            #expect(count.live == 1)
            shared.value = nil
            buffer = nil
            #expect(count.live == 0, "the published object goes with the buffer")
        }
        // None published: nothing released.
        _ = OnceBox.make(header: 1)
    }

    // MARK: the sole write's storage

    private func expectBalanced<V: Sendable>(
        _ make: @escaping (Token) -> V, _ token: @escaping @Sendable (V) -> Token,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let count = LiveCount()
        var next = 0
        func fresh() -> V { next += 1; return make(Token(count, next)) }
        do {
            let value = Stored(fresh(), name: nil, comparingWith: nil, file: #fileID, line: 1)
            let other = Stored(0)
            // One write: committed as an unbatched write.
            batch { value.value = fresh() }
            #expect(token(value.value).id == next, sourceLocation: sourceLocation)
            #expect(count.live == 1, "one write", sourceLocation: sourceLocation)
            // Two writes of the value: replaced in the storage, then applied with the lock held.
            batch {
                value.value = fresh()
                value.value = fresh()
            }
            #expect(token(value.value).id == next, sourceLocation: sourceLocation)
            #expect(count.live == 1, "two writes", sourceLocation: sourceLocation)
            // A write then another value's: the first is staged.
            batch {
                value.value = fresh()
                other.value += 1
            }
            #expect(token(value.value).id == next, sourceLocation: sourceLocation)
            #expect(count.live == 1, "staged by another write", sourceLocation: sourceLocation)
            // A write then a read in the batch: staged, seen.
            batch {
                value.value = fresh()
                #expect(token(value.value).id == next, sourceLocation: sourceLocation)
            }
            #expect(count.live == 1, "staged by a read", sourceLocation: sourceLocation)
            // Three writes, a read between.
            batch {
                value.value = fresh()
                value.value = fresh()
                _ = value.value
                value.value = fresh()
            }
            #expect(token(value.value).id == next, sourceLocation: sourceLocation)
            #expect(count.live == 1, "three writes", sourceLocation: sourceLocation)
            // Nested batches.
            batch {
                batch { value.value = fresh() }
                value.value = fresh()
            }
            #expect(token(value.value).id == next, sourceLocation: sourceLocation)
            #expect(count.live == 1, "nested", sourceLocation: sourceLocation)
            // A reaction that observes and writes back.
            let seen = Recorder<Int>()
            let reaction = observe { seen.append(token(value.value).id) }
            batch { value.value = fresh() }
            batch {
                value.value = fresh()
                value.value = fresh()
            }
            #expect(seen.all.count == 3, sourceLocation: sourceLocation)
            #expect(count.live == 1, "observed", sourceLocation: sourceLocation)
            reaction.cancel()
        }
        #expect(count.live == 0, "every value destroyed once the node goes", sourceLocation: sourceLocation)
    }

    @Test("every value a batch's sole write holds is destroyed exactly once, for each size and alignment")
    func soleWriteLifetimes() {
        expectBalanced({ Small(token: $0) }, \.token)
        expectBalanced({ Exact(token: $0) }, \.token)
        expectBalanced({ Large(token: $0) }, \.token)
        expectBalanced({ Aligned(token: $0) }, \.token)
        expectBalanced({ $0 }, { $0 })
        expectBalanced({ Optional($0) }, { $0! })
        #expect(MemoryLayout<Exact>.size == _SoleWrite.capacity)
        #expect(MemoryLayout<Large>.size == _SoleWrite.capacity + 1)
        #expect(MemoryLayout<Aligned>.alignment == 16)
    }

    @Test("sole writes of values of different classes in turn use each one's own code (performClass)")
    func performClassAlternates() {
        let count = LiveCount()
        let ints = Stored(0)
        let strings = Stored("")
        let tokens = Stored(Token(count, 0))
        let pairs = Stored((0, 0.0))
        let equatable = Stored(0, equals: { $0 == $1 })
        for round in 1...50 {
            batch { ints.value = round }
            batch { strings.value = String(repeating: "x", count: round) }
            batch { tokens.value = Token(count, round) }
            batch { pairs.value = (round, Double(round)) }
            batch { equatable.value = round }
            batch {
                ints.value = -round
                ints.value = round
            }
        }
        #expect(ints.value == 50)
        #expect(strings.value.count == 50)
        #expect(tokens.value.id == 50)
        #expect(pairs.value == (50, 50.0))
        #expect(equatable.value == 50)
        // `tokens` holds the one live token: kept alive through the count (an optimized build
        // may release it after its last use above).
        withExtendedLifetime(tokens) {
            #expect(count.live == 1)
        }
    }

    @Test("sole writes from many threads at once, each on its own context")
    func soleWritesOnManyThreads() {
        let count = LiveCount()
        let values = (0..<4).map { Stored(Small(token: Token(count, -$0))) }
        let sides = (0..<4).map { _ in Stored(0) }
        runOnThreads(4) { thread in
            for round in 0..<500 {
                batch { values[thread].value = Small(token: Token(count, round)) }
                batch {
                    values[thread].value = Small(token: Token(count, -1))
                    sides[thread].value += 1
                    _ = values[(thread + 1) % 4].value
                    values[thread].value = Small(token: Token(count, round))
                }
            }
        }
        // `values` hold the four live tokens: kept alive through the count (an optimized build
        // may release them after their last use).
        withExtendedLifetime(values) {
            #expect(values.allSatisfy { $0.value.token.id == 499 })
            #expect(count.live == 4)
        }
        #expect(sides.allSatisfy { $0.value == 500 })
    }

    // MARK: class hierarchy

    @Test("a Stored is a _StoredNode and a _Node, and is found by the casts the graph makes")
    func storedAsNode() {
        let stored = Stored(3, name: "three")
        let node: _Node = stored
        #expect(node.kind == .stored)
        #expect(node is Stored<Int>)
        #expect(node is _StoredNode<Int>)
        #expect(!(node is Stored<Int8>))
        #expect(!(node is _DerivedNode))
        #expect(type(of: node) == Stored<Int>.self)
        #expect(ObjectIdentifier(type(of: node)) == ObjectIdentifier(Stored<Int>.self))
        #expect(ObjectIdentifier(type(of: node)) != ObjectIdentifier(Stored<UInt>.self))
        #expect(_downcast(node, to: Stored<Int>.self) === stored)
        #expect(_graph.withLock { held in node._traceValue(held) } as? Int == 3)
        #expect(node.debugLabel == "Stored 'three'")
        let computed = Computed { stored.value + 1 }
        #expect(computed.value == 4)
        let computedNode: _Node = computed.node
        #expect(computedNode is _CachingNode<Int>)
        #expect(computedNode is _ComputedNodeBase)
        #expect(computedNode.kind == .computed)
    }

    // MARK: main actor

    @Test("a MainActorComputed created off the main actor derives on it, read there") @MainActor
    func mainActorComputedCreatedOffMain() {
        let source = Stored(2)
        let made = onOtherThread { () -> MainActorComputed<Int> in
            let origin = _Origin(name: "offMain", fileID: #fileID, line: #line)
            let node = _ComputedNode<Int>(
                origin: origin, isEqual: nil, derive: _Derivation.onMainActor({ source.value * 10 }, origin: origin))
            return MainActorComputed(node: node)
        }
        #expect(made.value == 20)
        source.value = 3
        #expect(made.value == 30)
        #expect(made.description.contains("offMain"))
    }

    // MARK: dependencies(of:)

    @Test("dependencies(of:) runs its body once, even when the body writes what it read, and keeps nothing")
    func dependenciesRunsOnce() {
        let count = LiveCount()
        let source = Stored(0, name: "source")
        let runs = Counter()
        do {
            let token = Token(count, 1)
            let snapshot = dependencies {
                runs.increment()
                _ = token
                source.value = source.value + 1
            }
            #expect(snapshot.sources.count == 1)
        }
        #expect(runs.value == 1)
        #expect(source.value == 1)
        #expect(count.live == 0, "the body and what it captured are released")
    }

    @Test("dependencies(of:) inside a batch runs at once")
    func dependenciesInBatch() async {
        await #expect(processExitsWith: .success) {
            let source = Stored(0, name: "source")
            var read = 0
            batch {
                source.value = 5
                let snapshot = dependencies { read = source.value }
                if snapshot.sources.count != 1 { exit(2) }
            }
            if read != 5 || source.value != 5 { exit(1) }
        }
    }
}
