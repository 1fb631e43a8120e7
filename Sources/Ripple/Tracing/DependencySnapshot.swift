import _RippleRef

/// The dependencies of one node at one moment: what it reads and what reads it, directly and
/// transitively, with names; as text, or as Graphviz `dot` for a picture.
///
/// For debugging a view that updates too often: take the snapshot of what it reads, and see
/// everything upstream of it.
///
/// ```swift
/// print(tipManager.isTipHidden.dependencies)
/// // Computed 'isTipHidden'
/// //   sources: 'isLoggedIn', 'hasClickedTip'
/// //   observers: 'render'
/// try tipManager.isTipHidden.dependencies.dot.write(toFile: "tip.dot", …)   // dot -Tpng tip.dot
/// ```
///
/// Nodes are named by their `name`, or by their kind and where they were created
/// (`Computed@TipManager.swift:21`). A computed value that nothing observes has sources but no
/// observers: it is not part of the live graph until something reads it in a reaction.
public struct DependencySnapshot: Sendable, CustomStringConvertible {
    /// A node of the snapshot.
    public struct Node: Sendable, Hashable {
        /// What kind of node it is.
        public enum Kind: String, Sendable, Hashable {
            /// A `Stored` value.
            case stored
            /// A `Computed` value.
            case computed
            /// A reaction (`observe`, a handler, a binding).
            case reaction
            /// The link that tells Observation (SwiftUI) of a computed value's changes.
            case observation
        }

        /// Tells nodes apart within the snapshot.
        public var id: Int
        /// The node's name, or its kind and where it was created.
        public var name: String
        /// What kind of node it is.
        public var kind: Kind
    }

    /// An edge: `observer` reads `source`.
    public struct Edge: Sendable, Hashable {
        /// The id of the node read.
        public var source: Int
        /// The id of the node that reads it.
        public var observer: Int
    }

    /// The node the snapshot is of.
    public var root: Node
    /// Every node upstream and downstream of the root, the root first.
    public var nodes: [Node]
    /// Every edge between them.
    public var edges: [Edge]
    /// Whether the walk stopped at ``limit`` nodes.
    public var isTruncated: Bool

    /// The most nodes a snapshot holds.
    public static let limit = 10_000

    /// The root's direct sources.
    public var sources: [Node] {
        edges.filter { $0.observer == root.id }.map { nodes[$0.source] }
    }

    /// The nodes that read the root directly.
    public var observers: [Node] {
        edges.filter { $0.source == root.id }.map { nodes[$0.observer] }
    }

    /// The root, its direct sources and observers, and the size of the whole snapshot.
    public var description: String {
        var lines = [
            "\(root.kind == .stored ? "Stored" : root.kind == .computed ? "Computed" : "Reaction") \(root.name)"
        ]
        lines.append("  sources: " + (sources.isEmpty ? "none" : sources.map(\.name).joined(separator: ", ")))
        lines.append("  observers: " + (observers.isEmpty ? "none" : observers.map(\.name).joined(separator: ", ")))
        if nodes.count > 1 + sources.count + observers.count {
            lines.append(
                "  (\(nodes.count) nodes and \(edges.count) edges in all\(isTruncated ? ", truncated" : ""); see `dot`)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The snapshot as a Graphviz graph: stored values as boxes, computed values as ellipses,
    /// reactions as bold boxes, the root filled; edges from a source to its reader.
    public var dot: String {
        var lines = ["digraph Ripple {", "  rankdir=LR;"]
        for node in nodes {
            let shape: String
            switch node.kind {
            case .stored: shape = "shape=box"
            case .computed: shape = "shape=ellipse"
            case .reaction: shape = "shape=box, style=bold"
            case .observation: shape = "shape=plaintext"
            }
            let root = node.id == self.root.id ? ", style=filled, fillcolor=lightgrey" : ""
            var label = ""
            for character in node.name {
                if character == "\\" || character == "\"" { label.append("\\") }
                label.append(character)
            }
            lines.append("  n\(node.id) [label=\"\(label)\", \(shape)\(root)];")
        }
        for edge in edges { lines.append("  n\(edge.source) -> n\(edge.observer);") }
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}

extension _Graph {
    /// The snapshot of `root`'s dependencies (takes the lock; names only, no user code).
    func dependencySnapshot(of root: _Node) -> DependencySnapshot {
        withLock { (held: borrowing _HeldLock) -> DependencySnapshot in
            var index: [ObjectIdentifier: Int] = [:]
            var nodes: [DependencySnapshot.Node] = []
            var edges: [DependencySnapshot.Edge] = []
            var truncated = false
            func id(_ node: _Node) -> Int? {
                if let known = index[ObjectIdentifier(node)] { return known }
                guard nodes.count < DependencySnapshot.limit else {
                    truncated = true
                    return nil
                }
                let kind: DependencySnapshot.Node.Kind
                switch node.kind {
                case .stored: kind = .stored
                case .computed: kind = .computed
                case .reaction: kind = .reaction
                case .watcher: kind = .observation
                }
                let new = nodes.count
                nodes.append(DependencySnapshot.Node(id: new, name: node.traceName, kind: kind))
                index[ObjectIdentifier(node)] = new
                return new
            }
            _ = id(root)
            // Upstream: sources, depth first.
            var stack = [root]
            var seen: Set<ObjectIdentifier> = [ObjectIdentifier(root)]
            while let node = stack.popLast(), let observer = id(node) {
                guard node.kind != .stored else { continue }
                let derived = _downcast(node, to: _DerivedNode.self)
                for position in 0..<held[sources: derived].count {
                    let source = held[sources: derived][position].node
                    guard let sourceID = id(source) else { break }
                    edges.append(DependencySnapshot.Edge(source: sourceID, observer: observer))
                    if seen.insert(ObjectIdentifier(source)).inserted { stack.append(source) }
                }
            }
            // Downstream: live observers.
            stack = [root]
            seen = [ObjectIdentifier(root)]
            while let node = stack.popLast(), let source = id(node) {
                for position in held[observers: node].slots {
                    let link = held[observers: node][position]
                    if link.isTombstone { continue }
                    let reader = link.node
                    guard let readerID = id(reader) else { break }
                    edges.append(DependencySnapshot.Edge(source: source, observer: readerID))
                    if seen.insert(ObjectIdentifier(reader)).inserted { stack.append(reader) }
                }
            }
            var unique = Set<DependencySnapshot.Edge>()
            edges = edges.filter { unique.insert($0).inserted }
            return DependencySnapshot(root: nodes[0], nodes: nodes, edges: edges, isTruncated: truncated)
        }
    }
}

extension Stored {
    /// What reads this value, directly and transitively (see ``DependencySnapshot``).
    ///
    /// - Complexity: O(*n*) in the nodes downstream, at most ``DependencySnapshot/limit``.
    public var dependencies: DependencySnapshot { _graph.dependencySnapshot(of: self) }
}

extension Computed {
    /// What this value reads and what reads it, directly and transitively (see
    /// ``DependencySnapshot``).
    ///
    /// - Complexity: O(*n*) in the nodes upstream and downstream, at most
    ///   ``DependencySnapshot/limit``.
    public var dependencies: DependencySnapshot { _graph.dependencySnapshot(of: node) }
}

extension Subscription {
    /// What the reaction behind this subscription read at its last run, directly and
    /// transitively (see ``DependencySnapshot``); `nil` for a subscription that is not a
    /// reaction's, or once it is cancelled.
    ///
    /// - Complexity: O(*n*) in the nodes upstream, at most ``DependencySnapshot/limit``.
    public var dependencies: DependencySnapshot? {
        guard let node = _reactionNode else { return nil }
        return _graph.dependencySnapshot(of: node)
    }
}
