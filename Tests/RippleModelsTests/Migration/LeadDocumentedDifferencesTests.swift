import Foundation
import Ripple
import RippleModels
import Testing

/// The two differences from Yoyo that the migration article documents, checked as a Yoyo user
/// would meet them.
@Suite struct LeadDocumentedDifferencesTests {
    final class Object: Sendable {}

    final class Log<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Value] = []
        func append(_ value: Value) { lock.withLock { values.append(value) } }
        var all: [Value] { lock.withLock { values } }
    }

    @Test func aWriteOfTheSameObjectNotifiesUnlessEqualsIsIdentity() {
        let object = Object()
        let plain = Stored(object)
        let byIdentity = Stored(object, equals: { $0 === $1 })
        let plainRuns = Log<Int>()
        let identityRuns = Log<Int>()
        let subscriptions = [
            observe {
                _ = plain.value; plainRuns.append(1)
            },
            observe {
                _ = byIdentity.value; identityRuns.append(1)
            },
        ]
        withExtendedLifetime(subscriptions) {
            plain.value = object  // Yoyo ignored this; Ripple notifies
            byIdentity.value = object  // the one-line fix: equals: { $0 === $1 }
        }
        #expect(plainRuns.all.count == 2)
        #expect(identityRuns.all.count == 1)
    }

    @Test func registeringOnAPausedUpdaterRunsOnResumeWithTheLatestValue() {
        let updater = Updater()
        let value = Stored(1)
        let seen = Log<Int>()
        updater.pause()
        updater.keepUpToDate(dependencies: [value]) { seen.append(value.value) }
        #expect(seen.all.isEmpty)  // Yoyo ran it at once
        value.value = 2
        updater.resume()
        #expect(seen.all == [2])  // once, with the latest value
    }
}
