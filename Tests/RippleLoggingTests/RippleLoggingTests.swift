import Logging
import Ripple
import RippleLogging
import Testing

/// A log handler that keeps what it is given.
struct MemoryLogHandler: LogHandler {
    final class Storage: @unchecked Sendable {
        private let lock = Lock()
        private var entries: [(Logger.Level, String, Logger.Metadata)] = []
        func append(_ entry: (Logger.Level, String, Logger.Metadata)) { lock.with { entries.append(entry) } }
        var all: [(Logger.Level, String, Logger.Metadata)] { lock.with { entries } }
    }

    let storage: Storage
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        storage.append((event.level, event.message.description, event.metadata ?? [:]))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    func with<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

@Suite struct RippleLoggingTests {
    private func logger(_ storage: MemoryLogHandler.Storage, level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "test") { _ in MemoryLogHandler(storage: storage) }
        logger.logLevel = level
        return logger
    }

    @Test("events are logged at their kind's level, with metadata")
    func levels() {
        let storage = MemoryLogHandler.Storage()
        let count = Stored(1, name: "count")
        let doubled = Computed(name: "doubled") { count.value * 2 }
        let render = observe(named: "render") { _ = doubled.value }
        withTracer(LoggingTracer(logger: logger(storage))) {
            batch { count.value = 2 }
        }
        let entries = storage.all
        #expect(
            entries.map(\.1) == [
                "batch start", "write 'count': 1 → 2", "batch end", "evaluate 'doubled': changed",
                "run 'render': 'doubled' 2 → 4",
            ])
        #expect(entries.map(\.0) == [.trace, .debug, .trace, .trace, .debug])
        #expect(entries[1].2["ripple.node"] == .string("'count'"))
        #expect(entries[1].2["ripple.kind"] == .string("write"))
        withExtendedLifetime(render) {}
    }

    @Test("a filter by node name, and the logger's own level, select what is logged")
    func filterAndLevel() {
        let storage = MemoryLogHandler.Storage()
        let a = Stored(0, name: "a"), b = Stored(0, name: "b")
        withTracer(LoggingTracer(logger: logger(storage), nodes: .named(["b"]))) {
            a.value = 1
            b.value = 1
        }
        #expect(storage.all.map(\.1) == ["write 'b': 0 → 1"])

        let quiet = MemoryLogHandler.Storage()
        withTracer(LoggingTracer(logger: logger(quiet, level: .info))) { a.value = 2 }
        #expect(quiet.all.isEmpty)

        let custom = MemoryLogHandler.Storage()
        let levels = LoggingTracer.Levels(write: .notice)
        withTracer(LoggingTracer(logger: logger(custom, level: .info), levels: levels)) { a.value = 3 }
        #expect(custom.all.map(\.0) == [.notice])
    }
}
