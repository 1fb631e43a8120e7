#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import _RippleThread
import _RippleRef

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

    private init(file: UnsafePointer<UInt8>?, lineAndLength: UInt64, box: _OriginBox?) {
        self.file = file
        self.lineAndLength = lineAndLength
        self.box = box
    }

    /// A box that names this origin `name` (`nil`: no name), keeping its file: what
    /// `_NameableOrigin` publishes.
    func nameBox(_ name: String?) -> _OriginBox {
        _OriginBox(name: name, file: box?.file)
    }

    /// This origin with the name (and file) of `box`, one made by `nameBox(_:)`.
    func with(_ box: _OriginBox) -> _Origin {
        _Origin(file: file, lineAndLength: lineAndLength, box: box)
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
/// by hand and released in `deinit`, is the word (an object's address: low bit clear). An
/// origin that may be named later (`init(nameableLater:)`) is a retained `_NameableOrigin`, its
/// address with bit 1 set (an object's address is a multiple of 16).
/// Non-copyable, so that the reference it owns is released exactly once, with its node.
struct _OriginStorage: ~Copyable {
    /// `address << 16 | line << 1 | 1`, the address of a retained `_OriginStorageBox`, or that
    /// of a retained `_NameableOrigin` `| 2`.
    private let word: UInt

    init(_ origin: _Origin) {
        if let address = origin.packableFileAddress, origin.line < 1 << 15 {
            word = address << 16 | origin.line << 1 | 1
        } else {
            word = UInt(bitPattern: _Ref(retaining: _OriginStorageBox(origin)).address)
        }
    }

    /// An origin without a name that may be given one later, once (see `_NameableOrigin`).
    init(nameableLater origin: _Origin) {
        word = UInt(bitPattern: _Ref(retaining: _NameableOrigin.make(origin)).address) | 2
    }

    deinit {
        if word & 3 == 0 {
            _Ref<_OriginStorageBox>(unsafeAddress: UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped).release()
        } else if word & 3 == 2 {
            nameable.release()
        }
    }

    /// The origin that may be named later (`word & 3 == 2`).
    private var nameable: _Ref<_NameableOrigin> {
        _Ref(unsafeAddress: UnsafeRawPointer(bitPattern: word & ~2).unsafelyUnwrapped)
    }

    /// Whether the origin may still be given a name (`giveName(_:)`); false for every origin
    /// but one created `nameableLater`, once named. Safe without the graph's lock.
    var awaitsName: Bool {
        word & 3 == 2 && nameable.with { !$0.isNamed }
    }

    /// Names an origin created `nameableLater` (`nil`: it keeps its file and line, and awaits no
    /// name any more), unless it was named already: the first name given wins. Safe without
    /// the graph's lock, from any number of threads.
    func giveName(_ name: String?) {
        guard word & 3 == 2 else { return }
        nameable.with { $0.publish(name) }
    }

    /// The origin it keeps.
    var origin: _Origin {
        guard word & 1 == 1 else {
            if word & 2 != 0 { return nameable.with { $0.origin } }
            return _Ref<_OriginStorageBox>(unsafeAddress: UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
                .object.origin
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

/// An origin created without a name that may be given one later, once: an `@Observed`
/// property's `Stored`, which learns its model and property only when the model first reaches
/// it (see `Stored._giveName(_:)`).
///
/// The header is the origin it was created with (file and line), never changed. The one element
/// is the published name: 0, or the address of a retained `_OriginBox` (made by
/// `_Origin.nameBox(_:)`), set once from 0 with a C atomic and read with one. So it is read
/// without the graph's lock, by diagnostics and by the accessor that asks whether the name is
/// still awaited, and a box once published stays until this object goes (with its node): a
/// reader that loaded it may use it unretained.
final class _NameableOrigin: ManagedBuffer<_Origin, UInt> {
    /// An unnamed origin that keeps `origin`'s file and line.
    static func make(_ origin: _Origin) -> _NameableOrigin {
        let made = _downcast(create(minimumCapacity: 1) { _ in origin }, to: _NameableOrigin.self)
        made.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
        return made
    }

    deinit {
        let published = withUnsafeMutablePointerToElements { $0.pointee }
        if published != 0 {
            _Ref<_OriginBox>(unsafeAddress: UnsafeRawPointer(bitPattern: published).unsafelyUnwrapped).release()
        }
    }

    /// The published name's box, if any.
    private var published: _OriginBox? {
        let word = withUnsafeMutablePointerToElements { _ripple_once_word_load($0) }
        guard word != 0 else { return nil }
        return _Ref<_OriginBox>(unsafeAddress: UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
            .object
    }

    /// Whether a name (or `nil`, "keep the file and line") was published.
    var isNamed: Bool {
        withUnsafeMutablePointerToElements { _ripple_once_word_load($0) } != 0
    }

    /// The origin: the header with the published name, if any.
    var origin: _Origin {
        guard let published else { return header }
        return header.with(published)
    }

    /// Publishes `name`, unless a name was published already.
    func publish(_ name: String?) {
        guard !isNamed else { return }
        let box = _Ref(retaining: header.nameBox(name))
        let won = withUnsafeMutablePointerToElements {
            _ripple_once_word_publish($0, UInt(bitPattern: box.address))
        }
        if !won { box.release() }
    }
}
