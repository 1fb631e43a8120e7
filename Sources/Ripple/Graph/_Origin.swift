import _RippleRef

/// Where a node came from: a user-given name, or the file and line that created it.
///
/// Every node holds one, so it is kept small: three words (it was six), the file as a pointer to
/// its static text, its length and the line packed in one word, and a name (rare) in a box.
@usableFromInline
struct _Origin: CustomStringConvertible, Sendable {
    /// The `#fileID` literal's text; `nil` when the literal had no pointer representation (then
    /// the box holds it as text).
    private let file: _StaticText?
    /// The line (low 32 bits) and the file's length in bytes (high 32 bits; 0 when not known,
    /// for an origin rebuilt by `_OriginStorage`: then the text's null byte ends it).
    private let lineAndLength: UInt64
    /// The name, or a file that had to be copied; `nil` for most nodes.
    private let box: _OriginBox?

    @usableFromInline
    init(name: String?, fileID: StaticString, line: UInt) {
        file = _StaticText(fileID)
        let length = file != nil ? UInt64(UInt32(truncatingIfNeeded: fileID.utf8CodeUnitCount)) : 0
        lineAndLength = UInt64(UInt32(truncatingIfNeeded: line)) | length << 32
        if file != nil {
            box = name.map { _OriginBox(name: $0, file: nil) }
        } else {
            box = _OriginBox(name: name, file: "\(fileID)")
        }
    }

    /// An origin named `describe()`: for a name that costs far more to make than the node, and
    /// that only traces and diagnostics read (a store's key-path slice, named after a key path
    /// whose description takes microseconds). The node that keeps it (`_OriginStorage`) holds
    /// the function, describes the name on its first read and keeps it; this value itself, until
    /// a node keeps it, describes it on each read.
    @usableFromInline
    init(describedBy describe: @escaping @Sendable () -> String, fileID: StaticString, line: UInt) {
        let plain = _Origin(name: nil, fileID: fileID, line: line)
        self.init(
            file: plain.file, lineAndLength: plain.lineAndLength,
            box: _OriginBox(name: nil, file: plain.box?.file, pending: .describe(describe)))
    }

    private init(file: _StaticText?, lineAndLength: UInt64, box: _OriginBox?) {
        self.file = file
        self.lineAndLength = lineAndLength
        self.box = box
    }

    /// A box that names this origin `name` (`nil`: no name), keeping its file: what
    /// `_NameableOrigin` publishes.
    func nameBox(_ name: String?) -> _OriginBox {
        _OriginBox(name: name, file: box?.file)
    }

    /// A box whose name `origin` describes, keeping this origin's file: what a node's origin
    /// still to describe gives out (see `_NameableOrigin.origin`).
    func describedBox(by origin: _NameableOrigin) -> _OriginBox {
        _OriginBox(name: nil, file: box?.file, pending: .describedBy(origin))
    }

    /// This origin with the name (and file) of `box`, one made by `nameBox(_:)` or
    /// `describedBox(by:)`.
    func with(_ box: _OriginBox) -> _Origin {
        _Origin(file: file, lineAndLength: lineAndLength, box: box)
    }

    /// A file-and-line origin rebuilt from what `_OriginStorage` packed: the file's length is
    /// not known (counted when read).
    init(file: _StaticText, line: UInt) {
        self.file = file
        lineAndLength = UInt64(UInt32(truncatingIfNeeded: line))
        box = nil
    }

    /// The address of the file's text, if the origin has no name and its file is a literal's
    /// text at an address below 2^48: what `_OriginStorage` can pack.
    var packableFileAddress: UInt? {
        guard box == nil, let file, file.address < 1 << 48 else { return nil }
        return file.address
    }

    /// The name given when the node was created, if any (described now, for an origin
    /// `describedBy` a function that has not run yet).
    var name: String? { box?.name }

    /// Whether the origin has a name, without describing one that is still to be described.
    var hasName: Bool { box?.hasName ?? false }

    /// The function that describes the name, while it has not run (see
    /// `init(describedBy:fileID:line:)`).
    var describer: (@Sendable () -> String)? {
        if case .describe(let describe)? = box?.pending { return describe }
        return nil
    }

    /// This origin without its name or the function that describes it.
    var withoutName: _Origin {
        guard let box, box.hasName else { return self }
        return _Origin(file: file, lineAndLength: lineAndLength, box: box.file.map { _OriginBox(name: nil, file: $0) })
    }

    /// The file that created the node (`Module/File.swift`).
    var fileID: String {
        if let file {
            let length = Int(lineAndLength >> 32)
            return file.string(utf8Count: length != 0 ? length : nil)
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
///
/// Unchecked `Sendable` for one member, `pending`'s `_NameableOrigin`: a `ManagedBuffer`, which
/// Swift marks as never `Sendable`, but whose header never changes and whose one element is only
/// ever read and published through the C atomics (see `_OnceReferenceBuffer`). Every stored
/// property is a `let`.
final class _OriginBox: @unchecked Sendable {
    /// A name that is still to be described.
    enum Pending {
        /// The function that describes it (`_Origin.init(describedBy:fileID:line:)`).
        case describe(@Sendable () -> String)
        /// The node's origin, which describes it once and keeps it (`_NameableOrigin`).
        case describedBy(_NameableOrigin)
    }

    /// The name given, if any.
    private let givenName: String?
    let file: String?
    /// The name to describe on first read, if any.
    let pending: Pending?

    init(name: String?, file: String?, pending: Pending? = nil) {
        givenName = name
        self.file = file
        self.pending = pending
    }

    /// The name: the given one, or the one described now (kept by the node's origin).
    var name: String? {
        if let givenName { return givenName }
        switch pending {
        case .describe(let describe)?: return describe()
        case .describedBy(let origin)?: return origin.describedName
        case nil: return nil
        }
    }

    /// Whether there is a name, given or to describe.
    var hasName: Bool { givenName != nil || pending != nil }
}

/// What a node keeps of its `_Origin`: one word instead of three.
///
/// The common origin (no name, a `#fileID` literal at an address below 2^48, a line below
/// 2^15) packs the file's address in the high 48 bits, the line above a set low bit. The
/// file's length is not kept: a literal's text is null-terminated (`StaticString.utf8Start`),
/// so diagnostics count it. Any other origin is kept whole in a box, whose reference, retained
/// by hand and released in `deinit`, is the word (an object's address: low bit clear). An
/// origin that may be named later (`init(nameableLater:)`), or whose name is described when
/// first read (`_Origin.init(describedBy:fileID:line:)`), is a retained `_NameableOrigin`, its
/// address with bit 1 set (an object's address is a multiple of 16).
/// Non-copyable, so that the reference it owns is released exactly once, with its node.
struct _OriginStorage: ~Copyable {
    /// `address << 16 | line << 1 | 1`, the address of a retained `_OriginStorageBox`, or that
    /// of a retained `_NameableOrigin` `| 2`.
    private let word: UInt

    init(_ origin: _Origin) {
        if let describe = origin.describer {
            // Named on first read: the node keeps the function, in the origin that keeps the
            // name once described.
            word =
                _Ref(retaining: _NameableOrigin.make(header: .init(origin: origin.withoutName, describe: describe)))
                .bitPattern | 2
        } else if let address = origin.packableFileAddress, origin.line < 1 << 15 {
            word = address << 16 | origin.line << 1 | 1
        } else {
            word = _Ref(retaining: _OriginStorageBox(origin)).bitPattern
        }
    }

    /// An origin without a name that may be given one later, once (see `_NameableOrigin`).
    init(nameableLater origin: _Origin) {
        word = _Ref(retaining: _NameableOrigin.make(header: .init(origin: origin, describe: nil))).bitPattern | 2
    }

    deinit {
        if word & 3 == 0 {
            _Ref<_OriginStorageBox>(bitPattern: word).release()
        } else if word & 3 == 2 {
            nameable.release()
        }
    }

    /// The origin that may be named later (`word & 3 == 2`).
    private var nameable: _Ref<_NameableOrigin> {
        _Ref(bitPattern: word & ~2)
    }

    /// Whether the origin may still be given a name (`giveName(_:)`): true only for one created
    /// `nameableLater` and not named yet (an origin `describedBy` a function has its name).
    /// Safe without the graph's lock.
    var awaitsName: Bool {
        word & 3 == 2 && nameable.with { !$0.isNamed && $0.header.describe == nil }
    }

    /// Names an origin created `nameableLater` (`nil`: it keeps its file and line, and awaits no
    /// name any more), unless it was named already: the first name given wins. Safe without
    /// the graph's lock, from any number of threads.
    func giveName(_ name: String?) {
        guard word & 3 == 2 else { return }
        nameable.with { $0.giveName(name) }
    }

    /// The origin it keeps.
    var origin: _Origin {
        guard word & 1 == 1 else {
            if word & 2 != 0 { return nameable.with { $0.origin } }
            return _Ref<_OriginStorageBox>(bitPattern: word).object.origin
        }
        return _Origin(file: _StaticText(address: word >> 16), line: (word & 0xFFFF) >> 1)
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
/// The header is the origin it was created with (file and line), never changed. The published
/// reference (see `_OnceReferenceBuffer`) is the name: none, or an `_OriginBox` made by
/// `_Origin.nameBox(_:)`, published once. So it is read without the graph's lock, by
/// diagnostics and by the accessor that asks whether the name is still awaited, and a box once
/// published stays until this object goes (with its node).
///
/// An origin `describedBy` a function (`_Origin.init(describedBy:fileID:line:)`) is kept here
/// too, with the function in the header: the first read of the name describes it and publishes
/// it, and origins copied from the node before that (a watcher's, a reaction's) name it through
/// this object, so it is described once.
final class _NameableOrigin: _OnceReferenceBuffer<_NameableOrigin.Header, _OriginBox> {
    /// What never changes: the origin created (file and line, no name) and the function that
    /// describes its name, if it has one to describe.
    struct Header {
        let origin: _Origin
        let describe: (@Sendable () -> String)?
    }

    /// Whether a name (or `nil`, "keep the file and line") was published.
    @inline(__always)
    var isNamed: Bool { isPublished }

    /// The origin: the header with the published name, if any; with a name still to describe,
    /// one that describes it when read.
    var origin: _Origin {
        if let published { return header.origin.with(published) }
        if header.describe != nil {
            return header.origin.with(header.origin.describedBox(by: self))
        }
        return header.origin
    }

    /// The name to describe, described now unless it was: the first description published wins.
    var describedName: String? {
        if let published { return published.name }
        guard let describe = header.describe else { return nil }
        publish(header.origin.nameBox(describe()))
        return published?.name
    }

    /// Publishes `name`, unless a name was published already (the first wins) or the origin's
    /// name is one to describe.
    func giveName(_ name: String?) {
        guard !isNamed, header.describe == nil else { return }
        publish(header.origin.nameBox(name))
    }
}
