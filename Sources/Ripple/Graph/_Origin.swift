/// Where a node came from: a user-given name, or the file and line that created it.
///
/// Every node holds one, so it is kept small: three words (it was six), the file as a pointer to
/// its static text, its length and the line packed in one word, and a name (rare) in a box.
@usableFromInline
struct _Origin: CustomStringConvertible, @unchecked Sendable {
    // @unchecked: `file` points to the static text of a `#fileID` literal, which never changes
    // and is never freed; the name box is immutable.

    /// The `#fileID` text's start; `nil` when the literal had no pointer representation (then
    /// the box holds it as text).
    private let file: UnsafePointer<UInt8>?
    /// The line (low 32 bits) and the file's length in bytes (high 32 bits).
    private let lineAndLength: UInt64
    /// The name, or a file that had to be copied; `nil` for most nodes.
    private let box: _OriginBox?

    @usableFromInline
    init(name: String?, fileID: StaticString, line: UInt) {
        let length = fileID.hasPointerRepresentation ? UInt64(UInt32(truncatingIfNeeded: fileID.utf8CodeUnitCount)) : 0
        lineAndLength = UInt64(UInt32(truncatingIfNeeded: line)) | length << 32
        if fileID.hasPointerRepresentation {
            file = fileID.utf8Start
            box = name.map { _OriginBox(name: $0, file: nil) }
        } else {
            file = nil
            box = _OriginBox(name: name, file: "\(fileID)")
        }
    }

    /// The name given when the node was created, if any.
    var name: String? { box?.name }

    /// The file that created the node (`Module/File.swift`).
    var fileID: String {
        if let file {
            return String(decoding: UnsafeBufferPointer(start: file, count: Int(lineAndLength >> 32)), as: UTF8.self)
        }
        return box?.file ?? "?"
    }

    /// The line that created the node.
    var line: UInt { UInt(lineAndLength & 0xFFFF_FFFF) }

    @usableFromInline
    var description: String {
        if let name { return "'\(name)'" }
        return "(\(fileID):\(line))"
    }
}

/// The rare parts of an `_Origin`.
final class _OriginBox: Sendable {
    let name: String?
    let file: String?

    init(name: String?, file: String?) {
        self.name = name
        self.file = file
    }
}
