#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Ripple

/// The calling thread's context (`_ThreadContext`): created on first use, reached on Linux
/// through a thread-local pointer, and released when its thread exits.
@Suite struct ThreadContextTests {
    @Test func aThreadsContextIsReleasedWhenItExits() {
        final class Weak: @unchecked Sendable { weak var context: _ThreadContext? }
        let weak = Weak()
        let stored = Stored(0)
        Thread.runUntilExited {
            batch { stored.value = 1 }
            weak.context = _ThreadContext.current
            #expect(_ThreadContext.existingPointer == Unmanaged.passUnretained(weak.context!).toOpaque())
        }
        #expect(weak.context == nil)
        #expect(stored.value == 1)
    }

    /// Another thread-local destructor, run after the context's, uses Ripple: it gets a new
    /// context, never the released one (AddressSanitizer's run reports a use after free
    /// otherwise).
    @Test func codeRunAfterTheContextsReleaseGetsANewOne() {
        final class Probe: @unchecked Sendable {
            let stored = Stored(0)
            var seen = -1
        }
        let probe = Probe()
        var key = pthread_key_t()
        // Created after the context's key (the first Ripple use in the process made that one),
        // so its destructor runs after the context's.
        _ = _ThreadContext.current
        let status = pthread_key_create(&key) { raw in
            let pointer: UnsafeMutableRawPointer? = raw
            let probe = Unmanaged<Probe>.fromOpaque(pointer!).takeRetainedValue()
            batch { probe.stored.value = 7 }
            probe.seen = probe.stored.value
        }
        #expect(status == 0)
        defer { pthread_key_delete(key) }
        Thread.runUntilExited { [key] in
            _ = probe.stored.value
            pthread_setspecific(key, Unmanaged.passRetained(probe).toOpaque())
        }
        #expect(probe.seen == 7)
    }
}
