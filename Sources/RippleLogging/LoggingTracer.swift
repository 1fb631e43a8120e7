import Logging
import Ripple

/// A tracer that writes the graph's `TraceEvent`s to a swift-log `Logger`, each kind
/// of event at its own level, optionally only for the nodes you name.
///
/// ```swift
/// import Logging
/// import RippleLogging
///
/// let logger = Logger(label: "app.state")
/// let tracing = installTracer(LoggingTracer(logger: logger, nodes: .named(["isTipHidden", "render"])))
/// ```
///
/// Each message is the event's one-line description (`write 'count': 1 → 2`), with the
/// metadata `ripple.kind`, `ripple.node` and `ripple.thread`. The logger's own level still
/// applies: at the default levels, a logger at `.info` logs only commits.
public struct LoggingTracer: GraphTracer {
    /// The level of each kind of event.
    public struct Levels: Sendable, Hashable {
        /// Writes of stored values; `.debug` by default.
        public var write: Logger.Level
        /// Re-evaluations of computed values; `.trace` by default.
        public var evaluation: Logger.Level
        /// Reaction runs, with what changed; `.debug` by default.
        public var reactionRun: Logger.Level
        /// Batch starts and ends; `.trace` by default.
        public var batch: Logger.Level
        /// Store commits, with the reactions they woke; `.info` by default.
        public var commit: Logger.Level

        /// Creates levels.
        public init(
            write: Logger.Level = .debug,
            evaluation: Logger.Level = .trace,
            reactionRun: Logger.Level = .debug,
            batch: Logger.Level = .trace,
            commit: Logger.Level = .info
        ) {
            self.write = write
            self.evaluation = evaluation
            self.reactionRun = reactionRun
            self.batch = batch
            self.commit = commit
        }
    }

    /// Which nodes' events are logged.
    public struct NodeFilter: Sendable {
        let includes: @Sendable (String) -> Bool

        /// Every node.
        public static var all: NodeFilter { NodeFilter { _ in true } }

        /// The nodes with these names (as given to `name:` or `observe(named:)`), and for
        /// commits, these stores. Batches are logged when `"batch"` is among them.
        public static func named(_ names: Set<String>) -> NodeFilter {
            NodeFilter { node in
                let bare =
                    node.hasPrefix("'") && node.hasSuffix("'") && node.count >= 2
                    ? String(node.dropFirst().dropLast()) : node
                return names.contains(bare)
            }
        }

        /// The nodes whose name (`'count'`, or `Stored@File.swift:12`) satisfies `predicate`.
        public static func matching(_ predicate: @escaping @Sendable (String) -> Bool) -> NodeFilter {
            NodeFilter(includes: predicate)
        }
    }

    /// The logger written to.
    public let logger: Logger
    /// The level of each kind of event.
    public let levels: Levels
    /// Which nodes' events are logged.
    public let nodes: NodeFilter

    /// Creates a tracer that writes to `logger`.
    ///
    /// - Parameters:
    ///   - logger: The logger.
    ///   - levels: The level of each kind of event.
    ///   - nodes: Which nodes' events to log; all by default.
    public init(logger: Logger, levels: Levels = Levels(), nodes: NodeFilter = .all) {
        self.logger = logger
        self.levels = levels
        self.nodes = nodes
    }

    /// Logs `event` if its node passes the filter.
    public func record(_ event: TraceEvent) {
        guard nodes.includes(event.node) else { return }
        let (level, kind): (Logger.Level, String)
        switch event.kind {
        case .write: (level, kind) = (levels.write, "write")
        case .evaluation: (level, kind) = (levels.evaluation, "evaluation")
        case .reactionRun: (level, kind) = (levels.reactionRun, "reactionRun")
        case .batchStart, .batchEnd: (level, kind) = (levels.batch, "batch")
        case .commit: (level, kind) = (levels.commit, "commit")
        }
        logger.log(
            level: level,
            "\(event.description)",
            metadata: [
                "ripple.kind": .string(kind),
                "ripple.node": .string(event.node),
                "ripple.thread": .string(event.thread),
            ]
        )
    }
}
