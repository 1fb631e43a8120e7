import Ripple
import RippleBindings
import Testing

@Suite struct LatestValueNestingTests {
    @Test("a value written by the setter while a drain applies is applied after it, not inside it")
    func nestedWriteFromDrainIsOrdered() {
        let executor = ManualExecutor()
        let source = Stored(0)
        let log = Locked<[String]>([])
        let shown = Locked(-1)
        let property = BindableProperty<Int>(on: executor.scheduler) { value in
            log.mutate { $0.append("begin \(value)") }
            if value > 10 { source.value = 10 }  // the control clamps the model
            shown.value = value
            log.mutate { $0.append("end \(value)") }
            return true
        }
        property.bind(source)
        executor.runAll()
        #expect(shown.value == 0)
        source.value = 15  // off the executor: queued, then applied by its job
        executor.runAll()
        #expect(source.value == 10)
        #expect(shown.value == 10, "the control shows \(shown.value) while the model holds 10")
        #expect(log.value == ["begin 0", "end 0", "begin 15", "end 15", "begin 10", "end 10"])
        withExtendedLifetime(property) {}
    }
}
