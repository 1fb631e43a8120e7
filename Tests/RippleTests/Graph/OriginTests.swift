import Testing
@testable import Ripple

/// `_Origin` packs a node's creation site into three words, and `_OriginStorage` (what a node
/// keeps) into one: both must give back exactly what they were given.
@Suite struct OriginTests {
    @Test("an origin gives back its file, line and name, and describes itself as before")
    func roundTrip() {
        let site = _Origin(name: nil, fileID: #fileID, line: 42)
        #expect(site.fileID == "RippleTests/OriginTests.swift")
        #expect(site.line == 42)
        #expect(site.name == nil)
        #expect(site.description == "(RippleTests/OriginTests.swift:42)")
        let named = _Origin(name: "total", fileID: #fileID, line: UInt(UInt32.max))
        #expect(named.name == "total")
        #expect(named.line == UInt(UInt32.max))
        #expect(named.fileID == "RippleTests/OriginTests.swift")
        #expect(named.description == "'total'")
        // A one-scalar literal has no pointer representation: kept as text.
        let scalar = _Origin(name: nil, fileID: "é", line: 1)
        #expect(scalar.fileID == "é")
        #expect(scalar.description == "(é:1)")
    }

    @Test("an origin is three words")
    func size() {
        #expect(MemoryLayout<_Origin>.size == 3 * MemoryLayout<Int>.size)
    }

    @Test("a node's stored origin is one word and gives back every kind of origin exactly")
    func storage() {
        #expect(MemoryLayout<_OriginStorage>.size == MemoryLayout<Int>.size)
        let origins = [
            _Origin(name: nil, fileID: #fileID, line: 42),  // packed
            _Origin(name: nil, fileID: #fileID, line: 1 << 15 - 1),  // packed, largest line
            _Origin(name: nil, fileID: #fileID, line: 1 << 15),  // boxed: a longer file
            _Origin(name: nil, fileID: #fileID, line: UInt(UInt32.max)),  // boxed
            _Origin(name: "total", fileID: #fileID, line: 7),  // boxed: a name
            _Origin(name: nil, fileID: "é", line: 1),  // boxed: no pointer to the text
        ]
        for origin in origins {
            let stored = _OriginStorage(origin)
            let back = stored.origin
            #expect(back.name == origin.name)
            #expect(back.fileID == origin.fileID)
            #expect(back.line == origin.line)
            #expect(back.description == origin.description)
        }
    }

    @Test("nodes of every kind describe their origin through their stored origin")
    func nodes() {
        let line = #line + 1
        let plain = Stored(1)
        let named = Stored(1, name: "count")
        let derived = Computed(name: "double") { plain.value * 2 }
        #expect(plain.origin.description == "(RippleTests/OriginTests.swift:\(line))")
        #expect(named.debugLabel == "Stored 'count'")
        #expect(derived.description == "Computed'double'")
    }
}
