import Observation
import Testing
@testable import Ripple

@Suite("Observation interop")
struct ObservationTests {
    @Test("reading a Stored inside withObservationTracking registers the access")
    func storedAccess() {
        let value = Stored(1)
        let changes = Counter()
        let read = withObservationTracking {
            value.value
        } onChange: {
            changes.increment()
        }
        #expect(read == 1)
        value.value = 1
        #expect(changes.value == 0, "an equal write is not a change")
        value.value = 2
        #expect(changes.value == 1)
        value.value = 3
        #expect(changes.value == 1, "Observation tracking fires once")
    }

    @Test("reading a Computed inside withObservationTracking fires onChange when it changes")
    func computedAccess() {
        let value = Stored(1)
        let parity = Computed { value.value % 2 }
        let changes = Counter()
        _ = withObservationTracking {
            parity.value
        } onChange: {
            changes.increment()
        }
        value.value = 3
        #expect(changes.value == 0, "the computed value did not change")
        value.value = 4
        #expect(changes.value == 1)
    }

    @Test("re-registering after each change sees every change, as SwiftUI does")
    func reRegistering() {
        let value = Stored(0)
        let doubled = Computed { value.value * 2 }
        let renders = Recorder<Int>()
        @Sendable func render() {
            let shown = withObservationTracking {
                doubled.value
            } onChange: {
                renders.append(-1)
            }
            renders.append(shown)
        }
        render()
        for next in 1...3 {
            value.value = next
            render()
        }
        #expect(renders.all == [0, -1, 2, -1, 4, -1, 6])
    }
}
