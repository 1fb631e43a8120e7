import Ripple
import OpenCombine
import Observation
import CMallocInfo

@Observable final class OBox<T> { var value: T; init(_ v: T) { value = v } }
let b = OBox(1)
let s = Stored(0)
let info = bench_malloc_in_use()
print(info, b.value, s.value)
