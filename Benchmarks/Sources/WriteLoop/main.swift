#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Ripple

// `WriteLoop GRAPH N`: builds one kairo graph (as `KairoRipple.swift` does) and makes N writes
// to its head, each a `batch { }` of one write followed by a top-level read of the graph's end,
// as one step of the benchmark's `iter()` does, without its checks. No timing: this is the
// program `count-instructions.sh` runs under callgrind with N = 0 and N = 100 000, so that the
// difference is the instructions of 100 000 writes, free of the machine's noise.

@inline(never)
func write(_ stored: Stored<Int>, _ value: Int) {
    batch { stored.value = value }
}

/// Counts reaction runs, so that no body is empty.
final class Counter: @unchecked Sendable {
    var n = 0
}

/// The head to write, the value to read after each write, and what keeps the graph alive.
struct Graph {
    let head: Stored<Int>
    let read: () -> Int
    let keepAlive: [Any]
}

func chain(from head: Stored<Int>, length: Int) -> [Computed<Int>] {
    var nodes: [Computed<Int>] = [Computed { head.value + 1 }]
    for _ in 1..<length {
        let previous = nodes[nodes.count - 1]
        nodes.append(Computed { previous.value + 1 })
    }
    return nodes
}

func build(_ name: String, _ count: Counter) -> Graph? {
    let head = Stored(0)
    switch name {
    case "deep":
        let nodes = chain(from: head, length: 50)
        let last = nodes[49]
        return Graph(
            head: head, read: { last.value },
            keepAlive: [
                nodes,
                observe {
                    _ = last.value; count.n += 1
                },
            ])
    case "broad":
        var nodes: [Computed<Int>] = []
        var reactions: [Subscription] = []
        for i in 0..<50 {
            let a = Computed { head.value + i }
            let b = Computed { a.value + 1 }
            reactions.append(
                observe {
                    _ = b.value; count.n += 1
                })
            nodes += [a, b]
        }
        let last = nodes[nodes.count - 1]
        return Graph(head: head, read: { last.value }, keepAlive: [nodes, reactions])
    case "diamond":
        let branches = (0..<5).map { _ in Computed { head.value + 1 } }
        let sum = Computed {
            var total = 0
            for branch in branches { total += branch.value }
            return total
        }
        return Graph(
            head: head, read: { sum.value },
            keepAlive: [
                branches, sum,
                observe {
                    _ = sum.value; count.n += 1
                },
            ])
    case "triangle":
        let nodes = chain(from: head, length: 10)
        let listTail = Array(nodes[0..<9])
        let sum = Computed {
            var total = head.value
            for node in listTail { total += node.value }
            return total
        }
        return Graph(
            head: head, read: { sum.value },
            keepAlive: [
                nodes, sum,
                observe {
                    _ = sum.value; count.n += 1
                },
            ])
    case "repeated":
        let c = Computed {
            var total = 0
            for _ in 0..<30 { total += head.value }
            return total
        }
        return Graph(
            head: head, read: { c.value },
            keepAlive: [
                c,
                observe {
                    _ = c.value; count.n += 1
                },
            ])
    case "unstable":
        let double = Computed { head.value * 2 }
        let inverse = Computed { -head.value }
        let c = Computed {
            var total = 0
            for _ in 0..<20 { total += head.value % 2 != 0 ? double.value : inverse.value }
            return total
        }
        // The benchmark reads `c` once after all its writes: each write here is followed by a
        // read of the head instead, which costs the same for every change.
        return Graph(
            head: head, read: { head.value },
            keepAlive: [
                double, inverse, c,
                observe {
                    _ = c.value; count.n += 1
                },
            ])
    case "avoidable":
        let c1 = Computed { head.value }
        let c2 = Computed {
            _ = c1.value; return 0
        }
        let c3 = Computed { c2.value + 1 }
        let c4 = Computed { c3.value + 2 }
        let c5 = Computed { c4.value + 3 }
        return Graph(
            head: head, read: { c5.value },
            keepAlive: [
                c1, c2, c3, c4, c5,
                observe {
                    _ = c5.value; count.n += 1
                },
            ])
    default:
        return nil
    }
}

let graphs = ["deep", "broad", "diamond", "triangle", "repeated", "unstable", "avoidable"]
let arguments = CommandLine.arguments
guard arguments.count == 3, let writes = Int(arguments[2]), writes >= 0 else {
    print("usage: WriteLoop GRAPH N  (GRAPH: \(graphs.joined(separator: ", ")))")
    exit(2)
}
let count = Counter()
guard let graph = build(arguments[1], count) else {
    print("unknown graph '\(arguments[1])' (known: \(graphs.joined(separator: ", ")))")
    exit(2)
}
write(graph.head, 1)
var sink = graph.read()
for i in 0..<writes {
    write(graph.head, i)
    sink &+= graph.read()
}
print(sink, count.n)
withExtendedLifetime(graph.keepAlive) {}
