import Observation
import Ripple
import Testing
@testable import RippleModels

@Suite("ObservableModel conforms to Observation's Observable")
struct ObservableModelTests {
    final class Profile: SendableModel, @unchecked Sendable {
        @Observed var name = "Ada"
        @Observed var visits = 0
    }

    /// What SwiftUI's `@Bindable` asks of its model.
    private func bindable<Model: Observable & AnyObject>(_ model: Model) -> Model { model }

    /// A thread-safe count of `onChange` calls.
    final class Calls: @unchecked Sendable {
        private let log = Log<Void>()
        func record() { log.append(()) }
        var count: Int { log.count }
    }

    @Test("a model is Observable, so @Bindable and Observations accept it")
    func isObservable() {
        let profile = Profile()
        #expect((profile as AnyObject) is any Observable)
        #expect(bindable(profile) === profile)
    }

    @Test(
        "reading a property through the model inside withObservationTracking registers it: a later change fires onChange once"
    )
    func trackingThroughProperty() {
        let profile = Profile()
        let calls = Calls()
        let name = withObservationTracking {
            profile.name
        } onChange: {
            calls.record()
        }
        #expect(name == "Ada")
        profile.visits = 1
        #expect(calls.count == 0, "a property it did not read")
        profile.name = "Ada"
        #expect(calls.count == 0, "an equal write is no change")
        profile.name = "Grace"
        #expect(calls.count == 1)
        profile.name = "Hopper"
        #expect(calls.count == 1, "a registration hears one change, as for an @Observable property")
    }

    @Test("reading through a binding (which also tracks every update) still fires onChange once per change")
    func trackingThroughBinding() {
        let profile = Profile()
        let calls = Calls()
        let visits = withObservationTracking {
            profile.bindings.visits.value
        } onChange: {
            calls.record()
        }
        #expect(visits == 0)
        profile.visits = 1
        #expect(calls.count == 1)
    }

    @Test("re-registering after each change, as SwiftUI does, sees every change once")
    func reRegistering() {
        let profile = Profile()
        let renders = Log<String>()
        let calls = Calls()
        @Sendable func render() {
            renders.append(
                withObservationTracking {
                    profile.name
                } onChange: {
                    calls.record()
                })
        }
        render()
        for next in ["Grace", "Hopper", "Lovelace"] {
            profile.name = next
            render()
        }
        #expect(renders.all == ["Ada", "Grace", "Hopper", "Lovelace"])
        #expect(calls.count == 3)
    }

    @Test("a Ripple reaction reading the model inside tracked { } runs once per change, not once more for Observation")
    func trackedReadsRegisterOnce() {
        let profile = Profile()
        let seen = Log<String>()
        let reaction = observe { seen.append(tracked { profile.name }) }
        profile.name = "Grace"
        profile.name = "Hopper"
        #expect(seen.all == ["Ada", "Grace", "Hopper"])
        reaction.cancel()
    }

    @Test("Observations streams a model's values", .timeLimit(.minutes(5)))
    func observationsStream() async {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        let profile = Profile()
        let names = Observations { profile.name }
        var iterator = names.makeAsyncIterator()
        #expect(await iterator.next() == "Ada")
        profile.name = "Grace"
        #expect(await iterator.next() == "Grace")
    }
}
