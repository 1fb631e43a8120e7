import RippleStore
import Testing
import Foundation
@Test(arguments: [10, 300, 1000]) func zzProbe(n: Int) {
    struct S: Equatable, Sendable { var values = [Int](repeating: 0, count: 1000) }
    let store = Store<S, Never>(initialState: S())
    let runs = Recorder<Int>()
    let slices = (0..<n).map { store.derived(\S.values[$0]) }
    let subs = slices.map { slice in observe { runs.append(slice.value) } }
    store.commit { $0.values[3] = 5 }
    store.commit { $0.values[3] = 6 }
    #expect(runs.values.count == n + 2)
    _ = subs
}
