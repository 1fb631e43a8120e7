#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// A file-and-line origin rebuilt from what `_OriginStorage` packed.
    init(file: UnsafePointer<UInt8>?, length: Int, line: UInt) {
        self.file = file
        lineAndLength = UInt64(UInt32(truncatingIfNeeded: line)) | UInt64(length) << 32
        box = nil
    }

    /// The address of the file's text, if the origin has no name and its file is a literal's
    /// text at an address below 2^48: what `_OriginStorage` can pack.
    var packableFileAddress: UInt? {
        guard box == nil, let file, UInt(bitPattern: file) < 1 << 48 else { return nil }
        return UInt(bitPattern: file)
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

/// What a node keeps of its `_Origin`: one word instead of three.
///
/// The common origin (no name, a `#fileID` literal at an address below 2^48, a line below
/// 2^15) packs the file's address in the high 48 bits, the line above a set low bit. The
/// file's length is not kept: a literal's text is null-terminated (`StaticString.utf8Start`),
/// so diagnostics count it. Any other origin is kept whole in a box, whose reference, retained
/// by hand and released in `deinit`, is the word (an object's address: low bit clear).
/// Non-copyable, so that the reference it owns is released exactly once, with its node.
struct _OriginStorage: ~Copyable {
    /// `address << 16 | line << 1 | 1`, or the address of a retained `_OriginStorageBox`.
    private let word: UInt

    init(_ origin: _Origin) {
        if let address = origin.packableFileAddress, origin.line < 1 << 15 {
            word = address << 16 | origin.line << 1 | 1
        } else {
            word = UInt(bitPattern: Unmanaged.passRetained(_OriginStorageBox(origin)).toOpaque())
        }
    }

    deinit {
        if word & 1 == 0 {
            Unmanaged<_OriginStorageBox>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped).release()
        }
    }

    /// The origin it keeps.
    var origin: _Origin {
        guard word & 1 == 1 else {
            return Unmanaged<_OriginStorageBox>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
                .takeUnretainedValue().origin
        }
        let file = UnsafePointer<UInt8>(bitPattern: word >> 16).unsafelyUnwrapped
        return _Origin(
            file: file, length: strlen(UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)),
            line: (word & 0xFFFF) >> 1)
    }
}

/// An origin an `_OriginStorage` could not pack.
final class _OriginStorageBox: Sendable {
    let origin: _Origin

    init(_ origin: _Origin) {
        self.origin = origin
    }
}
