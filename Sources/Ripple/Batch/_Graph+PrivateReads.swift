// A reaction started inside a batch that reads a computed value the batch's writes reach sees
// the value's private result, which the computed value itself may never hold: its edge records
// `_Graph.privateReadVersion`, a version no computed value has, so that the first check after
// the batch finds the edge changed and runs the reaction again. When the computed value has an
// equality (`==`, from `Computed`'s `Equatable` initializers, or one of its own, from
// `Computed(equals:)`), the value the reaction saw is kept here with that equality, and that
// check first compares it with the committed one: equal, the edge takes the computed value's
// version and the reaction does not run again for a value it has already seen. A computed
// value without equality counts every evaluation as a change: the committed evaluation runs the
// reaction again, as it would run any reaction that read the value.

/// A reaction and a computed value it read privately in a batch's view.
struct _PrivateRead: Hashable {
    let reader: ObjectIdentifier
    let node: ObjectIdentifier
}

extension _Graph {
    /// Keeps what `reader` read of `node` in its batch's view, as `sawCommitted`: whether a
    /// committed value is the private value it saw.
    func notePrivateRead(
        of node: _Node, by reader: ObjectIdentifier, _ held: borrowing _HeldLock, sawCommitted: @escaping (Any) -> Bool
    ) {
        assertLockHeld()
        state(held).privateReads[_PrivateRead(reader: reader, node: ObjectIdentifier(node))] = sawCommitted
    }

    /// Whether the edge `index` of `reader`, to `dep`, which holds `privateReadVersion`, was a
    /// read of the value `dep` now holds (`dep` up to date): if so, the edge takes
    /// `dep`'s version. Forgets the read either way.
    @inline(never)
    func privateReadSawCommittedValue(of dep: _Node, reader: _DerivedNode, at index: Int, _ held: borrowing _HeldLock)
        -> Bool
    {
        let locked = state(held)
        assertLockHeld()
        guard locked.hasPrivateReads,
            let sawCommitted = locked.privateReads.removeValue(
                forKey: _PrivateRead(reader: ObjectIdentifier(reader), node: ObjectIdentifier(dep))),
            let committed = dep._traceValue(held), sawCommitted(committed)
        else { return false }
        held[sources: reader][index].version = held[version: dep]
        return true
    }

    /// After `sourcesChanged(root)` found a change, with private reads kept: if
    /// the first changed edge of `root` is one to a private value `root` read in a batch's
    /// view, and that value is the committed one, the edge takes the computed value's version
    /// and the check goes on from there. Every source before that edge is up to date and
    /// unchanged, and the one it leads to was just brought up to date, as the check left them.
    @inline(never)
    func privateReadsLeftChanged(_ root: _DerivedNode, _ held: borrowing _HeldLock) -> Bool {
        for index in 0..<held[sources: root].count {
            let edge = held[sources: root][index]
            let dep = edge.node
            guard held[version: dep] != edge.version else { continue }
            guard edge.version == _Graph.privateReadVersion,
                privateReadSawCommittedValue(of: dep, reader: root, at: index, held)
            else { return true }
            return sourcesChanged(root, held)
        }
        return true
    }

    /// Forgets the private reads of `reader`, which runs again or is disposed.
    @inline(never)
    func forgetPrivateReads(of reader: _DerivedNode, _ held: borrowing _HeldLock) {
        let locked = state(held)
        let id = ObjectIdentifier(reader)
        for key in locked.privateReads.keys where key.reader == id { locked.privateReads[key] = nil }
    }
}
