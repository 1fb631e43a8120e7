import RippleStore
import Testing

// A derived value at a key path reads a stored property in place, at the offset
// `MemoryLayout` gives, and any other key path (a computed property, a subscript) through the
// key path. Either way it must hold what the naive read, `state[keyPath:]`, gives.

private struct DKNested: Equatable, Sendable {
    var label = ""
    var flags: [Bool] = []
}

private struct DKState: Equatable, Sendable {
    var small: UInt8 = 0
    var count = 0
    var name = ""
    var items: [Int] = [0, 0]
    var nested = DKNested()
    var optional: DKNested?
    var doubled: Int { count * 2 }

    /// One random change.
    mutating func change(_ generator: inout some RandomNumberGenerator) {
        switch Int.random(in: 0..<7, using: &generator) {
        case 0: small = .random(in: 0...3, using: &generator)
        case 1: count = .random(in: 0...3, using: &generator)
        case 2: name = ["", "a", "a name too long for the small-string form"].randomElement(using: &generator)!
        case 3: items[.random(in: 0..<2, using: &generator)] = .random(in: 0...3, using: &generator)
        case 4: nested.label = ["", "x"].randomElement(using: &generator)!
        case 5: nested.flags = Bool.random(using: &generator) ? [] : [true]
        default: optional = Bool.random(using: &generator) ? nil : DKNested(label: "y")
        }
    }
}

@Suite("Derived values at key paths: stored properties read in place")
struct DerivedKeyPathReadTests {
    @Test("each derived value holds the naive read of its key path after every commit")
    func matchesTheNaiveRead() {
        let store = Store<DKState, Never>(initialState: DKState())
        var checks: [(DKState) -> Bool] = []
        func watch<Value: Equatable & Sendable>(_ keyPath: any KeyPath<DKState, Value> & Sendable) {
            let derived = store.derived(keyPath)
            checks.append { state in derived.value == state[keyPath: keyPath] }
        }
        watch(\.small)
        watch(\.count)
        watch(\.name)
        watch(\.items)
        watch(\.nested)
        watch(\.nested.label)
        watch(\.nested.flags)
        watch(\.optional)
        watch(\.doubled)
        watch(\.items[1])
        watch(\.optional?.label)
        var generator = ENRandom(state: 0xD1CE)
        for round in 0..<300 {
            store.commit { $0.change(&generator) }
            let state = store.currentState
            for (index, check) in checks.enumerated() {
                #expect(check(state), "key path \(index), round \(round)")
            }
        }
    }
}
