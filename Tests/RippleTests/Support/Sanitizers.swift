#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the tests run under ThreadSanitizer or AddressSanitizer (their runtimes export
/// these symbols). Both make every derivation ten to thirty times slower, so the scale tests
/// use a tenth of their length under them.
enum Sanitizers {
    static let isActive: Bool = {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(program) }
        return dlsym(program, "__tsan_init") != nil || dlsym(program, "__asan_init") != nil
    }()
}
