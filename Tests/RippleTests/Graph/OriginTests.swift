import Testing
@testable import Ripple

/// `_Origin` packs a node's creation site into 16 bytes: it must give back exactly what it was given.
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
}
