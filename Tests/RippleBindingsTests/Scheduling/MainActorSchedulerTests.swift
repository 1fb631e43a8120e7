import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct MainActorSchedulerTests {
    @MainActor
    @Test("on the main actor, a main-actor binding applies at once, before the write returns")
    func atOnceOnMainActor() {
        let seen = Locked<[Int]>([])
        let property = BindableProperty<Int>(on: .mainActor) { value in
            MainActor.assumeIsolated { seen.mutate { $0.append(value) } }
            return true
        }
        let count = Stored(1)
        property.bind(count)
        #expect(seen.value == [1])
        count.value = 2
        #expect(seen.value == [1, 2])
    }

    @Test("off the main actor, a main-actor binding applies later, on the main actor")
    func hopsFromOtherThreads() async {
        let seen = Locked<[Int]>([])
        let property = BindableProperty<Int>(on: .mainActor) { value in
            MainActor.assumeIsolated { seen.mutate { $0.append(value) } }
            return true
        }
        let count = Stored(1)
        _ = await Task.detached { property.bind(count) }.value
        #expect(await eventually(100_000) { seen.value == [1] })
        await Task.detached { count.value = 2 }.value
        #expect(await eventually(100_000) { seen.value.last == 2 })
    }
}
