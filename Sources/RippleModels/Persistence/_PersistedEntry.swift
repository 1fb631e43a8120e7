import Ripple

/// The state every ``Persisted`` for one key of one store shares: the value written in this
/// process, the value loaded from the store, and the save waiting to run.
///
/// How a committed value reaches the store:
/// - `written` holds the value; the `saving` reaction notes each committed write (its value and
///   `written.writeCount`) after its batch or round, on the writing thread, and schedules one
///   save through the store for any number of notes made before that save runs;
/// - a save takes the pending value, encodes it and stores it; `saveLock` serialises saves, and a
///   note of an older write never replaces a newer one, so the store ends with the last value;
/// - ``flush()`` and ``close()`` note the latest value the calling thread sees (its own writes
///   in a batch that has not ended included) and save at once. `close()` runs when the last
///   handle is released, which is after every write made through a `Persisted` for the key (a
///   queued write keeps its handle): a value written and released in one batch or reaction is
///   saved there, although the reaction, which holds the entry weakly, will not run for it.
///
/// Locks, taken in this order and never while calling out, except where said:
/// - the graph's lock: only inside `written`'s reads and writes (and, for a first read inside
///   a `Computed`'s derivation, around the whole load, which the reader already holds);
/// - `saveLock`: held while encoding and calling the store (never with the graph's lock, except
///   for a migration's save scheduled by a store that saves at once, from a first read inside
///   a derivation; saves never take the graph's lock, so this cannot deadlock);
/// - `lock`: the bookkeeping below, held for a few instructions.
final class _PersistedEntry<Value: Sendable>: @unchecked Sendable {
    let key: String
    let store: any KeyValueStore
    let coding: _PersistedCoding<Value>
    private let migrate: (@Sendable (Any) -> Value?)?
    /// The last value written in this process, `nil` until the first write. Readers track it.
    let written: Stored<Value?>
    /// Notes each committed write after its batch or round, on the writing thread (a reaction,
    /// so that it sees a consistent value). Set once, at the end of `init`.
    private var saving: Subscription?

    private let lock = _Lock()
    private let saveLock = _Lock()
    // Guarded by `lock`.
    private var loadState: LoadState = .notLoaded
    /// Saves that have stored their value and not yet finished checking that the store kept
    /// it exactly (see `save()`); `flush()` waits for them.
    private var savesChecking = 0
    /// The value the next save writes, if any.
    private var pending: Value?
    /// `written.writeCount` of the last value noted for saving: a note of an older write
    /// never replaces a newer one.
    private var notedWrites = 0
    private var isSaveScheduled = false
    /// The last value noted for saving, to skip saving a write of a value the store already
    /// holds exactly (the write still notifies: `didUpdate` hears it).
    private var lastNoted: Value?
    /// The stored object that did not decode, until the first save moves it to a recovery
    /// key (see `moveUnreadableAside()`): a save never replaces data that could not be read.
    private var unreadable: Any?

    private enum LoadState {
        case notLoaded
        /// The stored value, decoded or migrated; `nil` if the store has none or it does not decode.
        case loaded(Value?)
        /// Loaded, then dropped once a write was noted: `written` holds the value from then on,
        /// so a large stored value is not kept twice.
        case superseded
    }

    init(key: String, store: any KeyValueStore, coding: _PersistedCoding<Value>, migrate: (@Sendable (Any) -> Value?)?)
    {
        self.key = key
        self.store = store
        self.coding = coding
        self.migrate = migrate
        let written = Stored<Value?>(nil, name: "Persisted '\(key)'", equals: nil)
        self.written = written
        saving = withoutOwner {
            observe { [weak self] in
                let count = written.writeCount
                guard let value = written.value, let self else { return }
                untracked { self.note(value, write: count) }
            }
        }
    }

    // MARK: Reading

    /// The current value, or `nil` for the default: the last one written, else the stored one.
    /// Tracks `written`; loads on the first call.
    func read() -> Value? {
        if let value = written.value { return value }
        return loaded()
    }

    /// The current value, untracked; loads (and so reports a decoding failure) if needed.
    func peek() -> Value? {
        if let value = untracked({ written.value }) { return value }
        return loaded()
    }

    /// The stored value, loaded on the first call: outside the graph's lock unless the caller
    /// holds it (a first read inside a derivation).
    private func loaded() -> Value? {
        switch lock.withLock({ loadState }) {
        case .loaded(let value): return value
        // A reader that found `written` empty just before the first write: it reads the write.
        case .superseded: return untracked { written.value }
        case .notLoaded: return untracked { load() }
        }
    }

    /// Reads and decodes the stored object, or migrates it; reports a failure. Two threads may
    /// both load; the first to finish installs its result and reports.
    private func load() -> Value? {
        var failure: PersistenceError?
        var unreadableObject: Any?
        var migrated = false
        let value: Value?
        if let object = store.object(forKey: key) {
            do {
                value = try coding.decode(object)
            } catch {
                if let migration = migrate?(object) {
                    value = migration
                    migrated = true
                } else {
                    value = nil
                    unreadableObject = object
                    failure = PersistenceError(
                        key: key,
                        storedType: _describeStoredObject(object),
                        expectedType: "\(Value.self)",
                        reason: error.reason,
                        recoveryKey: _recoveryKey(for: key, in: store)
                    )
                }
            }
        } else {
            value = nil
        }
        let (earlier, installed) = lock.withLock { () -> (LoadState, Bool) in
            if case .notLoaded = loadState {
                loadState = .loaded(value)
                unreadable = unreadableObject
                return (loadState, true)
            }
            return (loadState, false)
        }
        guard installed else {
            if case .loaded(let earlier) = earlier { return earlier }
            return untracked { written.value }
        }
        if migrated, let value { noteMigration(value) }
        if let failure {
            _PersistenceErrorHandler.log(failure)
            store.reportDecodingFailure(failure)
        }
        return value
    }

    // MARK: Saving

    /// Records `value`, committed as write number `write`, for the next save, and schedules
    /// one unless one is scheduled.
    private func note(_ value: Value, write: Int) {
        while true {
            // What the store holds or will hold, with the count of writes noted so far.
            let (previous, noted) = lock.withLock { () -> (Value?, Int) in
                if let lastNoted { return (lastNoted, notedWrites) }
                if case .loaded(let stored) = loadState { return (stored, notedWrites) }
                return (nil, notedWrites)
            }
            // A value whose stored form is exactly the one the store holds (or will hold) is
            // not saved again. Not `==`, which may call two different stored forms equal (a
            // record compared by its identifier, -0.0 and 0.0). Compared outside the lock: a
            // raw value's `rawValue` is user code.
            let isSame = previous.map { coding.isSameStored?($0, value) ?? false } ?? false
            // Whether to schedule a save; `nil`: another write was noted since the comparison,
            // compare with it instead (else this write could be skipped as equal to a value
            // the store no longer ends with).
            let schedule = lock.withLock { () -> Bool? in
                guard write > notedWrites else { return false }
                if isSame {
                    guard notedWrites == noted else { return nil }
                    notedWrites = write
                    return false
                }
                notedWrites = write
                lastNoted = value
                pending = value
                if case .loaded = loadState { loadState = .superseded }
                guard !isSaveScheduled else { return false }
                isSaveScheduled = true
                return true
            }
            guard let schedule else { continue }
            if schedule { store.scheduleSave { self.save() } }
            return
        }
    }

    /// Records a migrated stored value for saving, unless a write was already noted.
    private func noteMigration(_ value: Value) {
        let schedule = lock.withLock { () -> Bool in
            guard notedWrites == 0 else { return false }
            pending = value
            guard !isSaveScheduled else { return false }
            isSaveScheduled = true
            return true
        }
        if schedule { store.scheduleSave { self.save() } }
    }

    /// Records the latest committed value as the calling thread sees it (its own writes
    /// included, even inside a batch that has not ended), if the reaction has not yet.
    private func noteCommitted() {
        // The count first: the value read after it is at least as new as the count says.
        let (write, value) = untracked { (written.writeCount, written.value) }
        guard let value else { return }
        lock.withLock {
            guard write > notedWrites else { return }
            notedWrites = write
            // The value the store ends with: a later write of an equal value is compared with
            // it, not with an older note, so it is not skipped while the store holds another.
            lastNoted = value
            pending = value
            if case .loaded = loadState { loadState = .superseded }
        }
    }

    /// Encodes and stores the pending value, if any, then reports it if the store cannot keep
    /// it exactly (see `KeyValueStore.storedForm(of:)`). Returns whether it stored one.
    @discardableResult
    func save() -> Bool {
        let saved = saveLock.withLock { () -> (value: Value, object: Any)? in
            let value = lock.withLock { () -> Value? in
                isSaveScheduled = false
                defer { pending = nil }
                return pending
            }
            guard let value else { return nil }
            let object = coding.encode(value)
            moveUnreadableAside()
            store.set(object, forKey: key)
            // Counted before the save lock is released, so that a `flush()` whose own save
            // finds nothing pending still waits for this save's report.
            lock.withLock { savesChecking += 1 }
            return (value, object)
        }
        guard let saved else { return false }
        // Checked and reported without a lock held: decoding and comparing may call the app's
        // code (a raw value's initialiser), and the report calls its handler.
        if let failure = failureToKeep(saved.value, storedAs: saved.object) {
            _PersistenceErrorHandler.log(failure)
            store.reportWriteFailure(failure)
        }
        lock.withLock {
            savesChecking -= 1
            if savesChecking == 0 { lock.broadcast() }
        }
        return true
    }

    /// Before the first save replaces a stored object that did not decode, copies it, exactly
    /// as stored, to a recovery key (`_recoveryKey(for:in:)`: the one the load's error named,
    /// unless something was stored there since). Called by a save, with `saveLock` held.
    private func moveUnreadableAside() {
        let object = lock.withLock { () -> Any? in
            defer { unreadable = nil }
            return unreadable
        }
        guard let object else { return }
        store.set(object, forKey: _recoveryKey(for: key, in: store))
    }

    /// Waits until every save that has stored its value has also reported it if the store
    /// did not keep it exactly (see `save()`).
    private func waitForSaveChecks() {
        lock.withLock {
            while savesChecking > 0 { lock.wait() }
        }
    }

    /// The error to report when the store does not keep `value`, saved as `object`, exactly:
    /// what a later process reads back (`storedForm(of:)`) decodes to a value stored
    /// differently, or does not decode. `nil` when it is kept, or when the format cannot
    /// compare stored forms without encoding (JSON data, which every store keeps as it is), or
    /// when the comparison does not know the type (a `PropertyListValue` conformance outside
    /// Ripple, which is not even the same as itself to it).
    private func failureToKeep(_ value: Value, storedAs object: Any) -> PersistenceError? {
        guard let isSameStored = coding.isSameStored, isSameStored(value, value) else { return nil }
        let readBack = store.storedForm(of: object)
        let reason: String
        do throws(_PersistedCoding<Value>.Failure) {
            let decoded = try coding.decode(readBack)
            if isSameStored(value, decoded) { return nil }
            reason = "it reads back as a different value"
        } catch {
            reason = "it reads back as something that does not decode: \(error.reason)"
        }
        return PersistenceError(
            key: key,
            storedType: _describeStoredObject(readBack),
            expectedType: "\(Value.self)",
            reason: reason,
            kind: .notKeptExactly
        )
    }

    /// Saves the latest committed value now, then makes the store durable. Returns once every
    /// value saved so far has been reported, if its store did not keep it exactly.
    func flush() {
        noteCommitted()
        save()
        waitForSaveChecks()
        store.synchronize()
    }

    /// Called when the last `Persisted` for the key is released: saves what is pending.
    func close() {
        noteCommitted()
        if save() { store.synchronize() }
    }
}

/// The key a stored object that does not decode is kept under once a write replaces it:
/// `"<key>.unreadable"`, or `"<key>.unreadable.2"`, `.3`… when that one holds something
/// already (an earlier recovery is never overwritten).
///
/// - Complexity: One store read per recovery key already in use.
func _recoveryKey(for key: String, in store: any KeyValueStore) -> String {
    var candidate = key + ".unreadable"
    var number = 2
    while store.object(forKey: candidate) != nil {
        candidate = key + ".unreadable.\(number)"
        number += 1
    }
    return candidate
}
