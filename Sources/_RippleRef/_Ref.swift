/// A reference to an object of the graph that does not retain it: one word, no reference
/// counting when it is copied, stored or followed.
///
/// The graph keeps most of its references this way: an edge holds its source retained once,
/// by hand, and every other reference to that node (an observer list's link, a stack frame of
/// a walk, the job of a reaction) is unretained, because something that outlives it (the edge,
/// the handle, the graph) keeps the node alive. `_Ref` is the one type that does this, so that
/// the algorithms (push, pull, tracking, delivery, staging) read as plain Swift and the
/// reasoning about lifetimes lives here:
///
/// - ``with(_:)`` reaches the object without a retain and release around the access: the
///   caller promises that something keeps it alive for the closure's duration (in the graph,
///   almost always the edge or the lock).
/// - ``object`` returns it as a strong reference (retained by whatever stores it).
/// - ``init(retaining:)``, ``retain()``, ``release()`` and ``takeRetained()`` are the few
///   places where the graph owns a reference by hand (edges, queued jobs, references released
///   once the lock is released); each must be balanced.
/// - ``address`` and ``init(unsafeAddress:)`` pass it through a C word or a thread-local slot.
///
/// Everything here is `Unmanaged` (and `unsafeDowncast`, in ``_downcast(_:to:)``), kept in
/// this module: `Unmanaged` appears nowhere in Ripple's own sources.
///
/// A module of its own so that debug builds pay nothing for it: a module compiled without
/// optimization inlines only the transparent functions of *other* modules (of its own files it
/// calls each one), and as a file of Ripple, `_Ref` made debug builds' graphs 5–13 % slower.
/// Its members are transparent, except ``with(_:)`` in optimized builds, where it is
/// `@inline(__always)`: transparent, it made the optimized deep chain cost 5 % more
/// instructions per write (14 152 → 14 897, `count-instructions.sh`).
@frozen
public struct _Ref<Object: AnyObject> {
    /// The reference itself (reached only by these members: Ripple never names `Unmanaged`).
    @usableFromInline let unmanaged: Unmanaged<Object>

    /// An unretained reference to `object`. Borrowed: an initializer's arguments are owned by
    /// default, which made every caller retain and release `object` around the call.
    @_transparent
    public init(_ object: borrowing Object) {
        unmanaged = .passUnretained(object)
    }

    /// A reference that owns one retain of `object`, given back by ``release()`` or
    /// ``takeRetained()``.
    @_transparent
    public init(retaining object: borrowing Object) {
        unmanaged = .passRetained(object)
    }

    /// The reference whose ``address`` is `address`: unchecked, the address must be one that
    /// ``address`` gave for an object still alive.
    @_transparent
    public init(unsafeAddress address: UnsafeRawPointer) {
        unmanaged = .fromOpaque(address)
    }

    /// A reference from `Unmanaged` (for ``retain()``).
    @_transparent @usableFromInline
    init(_ unmanaged: Unmanaged<Object>) {
        self.unmanaged = unmanaged
    }

    /// Runs `body` with the object, without retaining it around the call: something else must
    /// keep it alive until `body` returns.
    #if DEBUG
    @_transparent
    public func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try unmanaged._withUnsafeGuaranteedRef(body)
    }
    #else
    /// Runs `body` with the object, without retaining it around the call (see above).
    @inlinable @inline(__always)
    public func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try unmanaged._withUnsafeGuaranteedRef(body)
    }
    #endif

    /// ``with(_:)`` for a body that consumes `token`, a non-copyable value the caller owns (the
    /// graph's `_HeldLock`): a closure cannot consume what it captures, so the token is handed to
    /// `body` as an argument.
    @inlinable @inline(__always)
    public func with<Token: ~Copyable, Result>(
        handing token: consuming Token,
        _ body: (Object, consuming Token) throws -> Result
    ) rethrows -> Result {
        // Through an optional: the closure below takes the token out of it, once.
        var slot = Optional(token)
        return try unmanaged._withUnsafeGuaranteedRef { try body($0, slot.take()!) }
    }

    /// The object, as a strong reference (the caller retains it if it keeps it).
    @_transparent
    public var object: Object { unmanaged.takeUnretainedValue() }

    /// The object's address: the same for every reference to the same object.
    @_transparent
    public var address: UnsafeMutableRawPointer { unmanaged.toOpaque() }

    /// Whether this is a reference to `other`.
    @_transparent
    public func refers<Other: AnyObject>(to other: Other) -> Bool {
        unmanaged.toOpaque() == Unmanaged.passUnretained(other).toOpaque()
    }

    /// Adds one retain, owned by the caller.
    @_transparent @discardableResult
    public func retain() -> Self {
        Self(unmanaged.retain())
    }

    /// Gives back one retain (perhaps the last: the object may be destroyed, and its
    /// deinitializer run, here).
    @_transparent
    public func release() {
        unmanaged.release()
    }

    /// The object, taking over one retain this reference owned.
    @_transparent
    public func takeRetained() -> Object {
        unmanaged.takeRetainedValue()
    }
}

/// Sendable as `Unmanaged` is: when the object is.
extension _Ref: @unchecked Sendable where Object: Sendable {}

extension _Ref: Equatable {
    @_transparent
    /// Whether both refer to the same object.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.unmanaged.toOpaque() == rhs.unmanaged.toOpaque()
    }
}

/// `object` as a `T`, which it is: the graph knows it from the node's kind (a node of kind
/// `.reaction` is a `_ReactionNode`). No check in optimized builds; debug builds and the
/// invariant-checking test runs (`RIPPLE_INVARIANTS`) stop with a message if it is not.
@_transparent
public func _downcast<T: AnyObject>(_ object: AnyObject, to type: T.Type) -> T {
    // Debug builds check it already (`unsafeDowncast` does, unoptimized); optimized builds with
    // the invariant checks (CI's AddressSanitizer run) check it here.
    #if RIPPLE_INVARIANTS && !DEBUG
    precondition(object is T, "Ripple internal error: \(Swift.type(of: object)) is not a \(T.self)")
    #endif
    return unsafeDowncast(object, to: type)
}

/// `body` with its main-actor isolation dropped, so that nonisolated code can call it: the
/// caller runs it only where the thread was checked to be the main one (as
/// `MainActor.assumeIsolated` does, for a result that need not be `Sendable`).
///
/// Where the core (`Ripple`) converts a main-actor function type: `MainActorComputed`'s
/// derivations, which `_Derivation` runs after checking the thread, and their equalities,
/// which run only inside those derivations. (RippleStore, which cannot import this module,
/// makes the same cast for a main-actor store's deliveries.)
@_transparent
public func _assumingMainActor<Value>(_ body: @escaping @MainActor () -> Value) -> () -> Value {
    unsafeBitCast(body, to: (() -> Value).self)
}

/// `body` with its main-actor isolation dropped (see the first `_assumingMainActor(_:)`).
@_transparent
public func _assumingMainActor<Argument, Value>(
    _ body: @escaping @MainActor (Argument) -> Value
) -> (Argument) -> Value {
    unsafeBitCast(body, to: ((Argument) -> Value).self)
}

/// `body` with its main-actor isolation dropped (see the first `_assumingMainActor(_:)`).
@_transparent
public func _assumingMainActor<First, Second, Value>(
    _ body: @escaping @MainActor (First, Second) -> Value
) -> (First, Second) -> Value {
    unsafeBitCast(body, to: ((First, Second) -> Value).self)
}

/// `body` with its main-actor isolation dropped, still `Sendable`: a main-actor reaction's
/// body, which the core runs only on the main thread (at once when it is triggered there,
/// else after a hop to the main actor; see `_ReactionNode.runRequested`).
@_transparent
public func _assumingMainActor(sendable body: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
    unsafeBitCast(body, to: (@Sendable () -> Void).self)
}

// MARK: - A reference as a word

extension _Ref {
    /// The reference whose ``bitPattern`` is `bitPattern`: unchecked, like
    /// ``init(unsafeAddress:)``, the word must be one that ``bitPattern`` gave for an object
    /// still alive.
    ///
    /// For a reference kept in a word with other things: a node's packed origin
    /// (`_OriginStorage`) tags it in its low bits, which an object's address leaves clear, and a
    /// late name (`_OnceReferenceBuffer`) publishes it through a C atomic word.
    @_transparent
    public init(bitPattern: UInt) {
        self.init(unsafeAddress: UnsafeRawPointer(bitPattern: bitPattern).unsafelyUnwrapped)
    }

    /// The object's ``address`` as a word (never 0), given back by ``init(bitPattern:)``.
    @_transparent
    public var bitPattern: UInt { UInt(bitPattern: address) }
}
