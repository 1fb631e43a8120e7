@testable import RippleStore
import Testing

// `StateField` compares a stored property in place, at the offset `MemoryLayout` gives its key
// path, and falls back to applying the key path for any other (a computed property, a
// subscript). Both must agree with the naive comparison, `a[keyPath:] == b[keyPath:]`.

private struct SFCNested: Equatable, Sendable {
    var label = ""
    var flags: [Bool] = []
}

private struct SFCState: Equatable, Sendable {
    var small: UInt8 = 0
    var count = 0
    var name = ""
    var items: [Int] = []
    var nested = SFCNested()
    var optional: SFCNested?
    var pair = (0, "")
    var doubled: Int { count * 2 }

    static func == (a: SFCState, b: SFCState) -> Bool {
        a.small == b.small && a.count == b.count && a.name == b.name && a.items == b.items
            && a.nested == b.nested && a.optional == b.optional && a.pair == b.pair
    }
}

@Suite("StateField: a field's comparison")
struct StateFieldComparisonTests {
    /// A state changed at random, field by field.
    private func randomState(_ generator: inout some RandomNumberGenerator) -> SFCState {
        var state = SFCState()
        if Bool.random(using: &generator) { state.small = .random(in: 0...2, using: &generator) }
        if Bool.random(using: &generator) { state.count = .random(in: 0...2, using: &generator) }
        if Bool.random(using: &generator) {
            state.name = ["", "a", "a long name past the small-string form"].randomElement(using: &generator)!
        }
        if Bool.random(using: &generator) {
            state.items = Array(repeating: 1, count: .random(in: 0...2, using: &generator))
        }
        if Bool.random(using: &generator) { state.nested.label = "x" }
        if Bool.random(using: &generator) { state.nested.flags = [true] }
        if Bool.random(using: &generator) {
            state.optional = SFCNested(label: Bool.random(using: &generator) ? "y" : "")
        }
        if Bool.random(using: &generator) { state.pair.1 = "z" }
        return state
    }

    @Test("compares each stored field in place as the key path compares it, and computed ones through the key path")
    func agreesWithTheKeyPath() {
        var generator = ENRandom(state: 0x5EED)
        func check<Value: Equatable & Sendable>(_ keyPath: any KeyPath<SFCState, Value> & Sendable, inPlace: Bool) {
            #expect(
                (MemoryLayout<SFCState>.offset(of: keyPath as PartialKeyPath<SFCState>) != nil) == inPlace, "\(keyPath)"
            )
            let field = StateField(keyPath)
            for _ in 0..<200 {
                let a = randomState(&generator)
                let b = Bool.random(using: &generator) ? a : randomState(&generator)
                #expect(field.isEqual(a, b) == (a[keyPath: keyPath] == b[keyPath: keyPath]), "\(keyPath)")
            }
        }
        check(\.small, inPlace: true)
        check(\.count, inPlace: true)
        check(\.name, inPlace: true)
        check(\.items, inPlace: true)
        check(\.nested, inPlace: true)
        check(\.nested.label, inPlace: true)
        check(\.nested.flags, inPlace: true)
        check(\.optional, inPlace: true)
        check(\.pair.1, inPlace: true)
        check(\.doubled, inPlace: false)
        check(\.items.count, inPlace: false)
    }
}
