import InMemoryLogging
import Logging
import RippleLogging
import RippleStore
import Testing

// RippleLogging as its articles show it, compiled as Xcode 26 compiles a new app target (see
// Package.swift): every declaration here is main-actor isolated by default. Nothing in this
// file says `nonisolated`, `Sendable`, `@unchecked Sendable`, `@preconcurrency`, `@MainActor`
// or `assumeIsolated`.

/// A cart's state: a plain value type.
struct CartState: Equatable {
    var count = 0
}

@Suite("RippleLogging in a main-actor app target")
struct LoggingInMainActorAppTests {
    /// A logger that keeps what it logs, at `level`.
    func logger(_ handler: InMemoryLogHandler, level: Logger.Level) -> Logger {
        var logger = Logger(label: "app.state") { _ in handler }
        logger.logLevel = level
        return logger
    }

    @Test("an installed tracer logs writes and reaction runs at .debug until it is cancelled")
    func installedTracer() {
        let handler = InMemoryLogHandler()
        let count = Stored(0, name: "installed.count")
        let render = observe(named: "installed.render") { _ = count.value }
        // Process-wide: other tests' nodes, written meanwhile, are left out by name.
        let tracing = installTracer(
            LoggingTracer(
                logger: logger(handler, level: .debug), nodes: .named(["installed.count", "installed.render"])))
        count.value = 1
        tracing.cancel()
        count.value = 2
        #expect(
            handler.entries.map(\.message.description) == [
                "write 'installed.count': 0 → 1", "run 'installed.render': 'installed.count' 0 → 1",
            ])
        #expect(handler.entries.map(\.level) == [.debug, .debug])
        render.cancel()
    }

    @Test("levels and a node filter, in a scope; a main-actor store's commits are logged")
    func levelsAndNodes() {
        let handler = InMemoryLogHandler()
        let tracer = LoggingTracer(
            logger: logger(handler, level: .info),
            levels: .init(write: .info, reactionRun: .info),
            nodes: .named(["cart", "checkout button"])
        )
        let cart = Stored(0, name: "cart")
        let other = Stored(0, name: "other")
        let button = observe(named: "checkout button") { _ = cart.value }
        let store = MainActorStore<CartState, Never>(initialState: CartState(), name: "cart")
        withTracer(tracer) {
            cart.value = 1
            other.value = 1
            store.commit("add") { $0.count += 1 }
        }
        let messages = handler.entries.map(\.message.description)
        #expect(messages.first == "write 'cart': 0 → 1")
        #expect(messages.contains("run 'checkout button': 'cart' 0 → 1"))
        #expect(!messages.contains { $0.contains("other") })
        #expect(messages.contains("commit cart add: woke nothing"))
        button.cancel()
    }

    @Test("a rule selects nodes by any rule, such as the file that created them")
    func matching() {
        let handler = InMemoryLogHandler()
        let tracer = LoggingTracer(
            logger: logger(handler, level: .debug), nodes: .matching { $0.contains("LoggingInMainActorApp") })
        let unnamed = Stored(0)
        let other = Stored(0, name: "other")
        withTracer(tracer) {
            unnamed.value = 1
            other.value = 1
        }
        #expect(handler.entries.count == 1)
        #expect(
            handler.entries.first?.message.description.hasPrefix("write Stored@LoggingInMainActorAppTests.swift:")
                == true)
    }
}
