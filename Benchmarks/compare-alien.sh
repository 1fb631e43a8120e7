#!/bin/bash
# Ripple against alien-signals in the same run: Ripple's full kairo, molBench, cellx and
# dynamic rows, then at once the JavaScript libraries on the same graphs
# (`../shared/benchmarks/js/run.sh alien312 alien`), then the ratio of each graph: Ripple's
# median ÷ the better alien-signals median of that run (and the same for the minimums,
# the figure the public suite reports). A ratio below 1 means Ripple is faster. Machines of
# this class move by 20–30 % from run to run, so only ratios taken in one run compare.
#
#   Benchmarks/compare-alien.sh                 # builds RippleBenchmarks (release), one pair
#   RUNS=3 Benchmarks/compare-alien.sh          # three pairs, one after the other
#   BINARY=/tmp/rb Benchmarks/compare-alien.sh  # a binary built elsewhere (another commit)
#   JS=/path/to/benchmarks/js Benchmarks/compare-alien.sh
#   Benchmarks/compare-alien.sh RIPPLE_OUT JS_OUT   # only the ratios of two saved outputs
#
# Needs node and python3. Each pair takes about 2.5 minutes; the outputs are kept in
# $RESULTS (a new temporary directory unless set). Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")"
js=${JS:-../../shared/benchmarks/js}
if [ $# -eq 2 ]; then
    ripple_out=$(cd "$OLDPWD" && realpath "$1")
    js_out=$(cd "$OLDPWD" && realpath "$2")
fi
[ -x "$js/run.sh" ] || { echo "compare-alien.sh: no $js/run.sh (set JS=)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "compare-alien.sh: python3 is not installed" >&2; exit 1; }

ratios() {  # ripple output, js output
    python3 - "$1" "$2" <<'PY'
import re, sys
ripple = {}
for line in open(sys.argv[1]):
    m = re.match(r'\s+(.+?) / Ripple: ([\d.]+) \(([\d.]+)\)', line)
    if m and m.group(1) not in ripple:
        ripple[m.group(1)] = (float(m.group(2)), float(m.group(3)))
js = {}
for line in open(sys.argv[2]):
    m = re.match(r'(alien312|alien)\s+(.+?)\s+median\s+([\d.]+)\s+min\s+([\d.]+)', line)
    if not m:
        continue
    median, minimum = float(m.group(3)), float(m.group(4))
    total = re.search(r'sum_of_10=([\d.]+)', line)
    if total:  # cellx: the suite's figure is the sum of 10 samples (Ripple's sample is that sum)
        median = minimum = float(total.group(1))
    js.setdefault(m.group(2).strip(), []).append((median, minimum))
graphs = [('deep', 'deepPropagation'), ('broad', 'broadPropagation'), ('diamond', 'diamond'),
          ('triangle', 'triangle'), ('repeated', 'repeatedObservers'), ('unstable', 'unstable'),
          ('avoidable', 'avoidablePropagation'), ('mux', 'mux'), ('molBench', 'molBench'),
          ('cellx 1000', 'cellx1000'), ('cellx 2500', 'cellx2500'),
          ('simple component', '(simple component)'), ('dynamic component', '(dynamic component)'),
          ('large web app', '(large web app)'), ('wide dense', '(wide dense)'),
          ('deep (dynamic)', '(deep)'), ('very dynamic', '(very dynamic)')]
print(f"{'graph':18} {'Ripple':>9} {'alien':>9} {'ratio':>6}   {'min ratio':>9}")
worst = (0, '')
for name, js_name in graphs:
    found = [v for k, vs in js.items() if k == js_name or k.endswith(js_name) for v in vs]
    if name not in ripple or not found:
        print(f"{name:18} missing")
        continue
    median, minimum = ripple[name]
    if name == 'molBench':  # Ripple times 10 000 iter() per sample, the JS runner 500
        median, minimum = median / 20, minimum / 20
    best_median = min(v[0] for v in found)
    best_minimum = min(v[1] for v in found)
    ratio = median / best_median
    worst = max(worst, (ratio, name))
    flag = '  above 1' if ratio >= 1 else ''
    # cellx: the JS figure is one sum of 10 samples, with no minimum to compare.
    least = '-' if name.startswith('cellx') else f"{minimum / best_minimum:.2f}"
    print(f"{name:18} {median:9.3g} {best_median:9.3g} {ratio:6.2f}   {least:>9}{flag}")
print(f"worst median ratio: {worst[0]:.2f} ({worst[1]})")
PY
}

if [ -n "${ripple_out:-}" ]; then
    ratios "$ripple_out" "$js_out"
    exit 0
fi

binary=${BINARY:-}
if [ -z "$binary" ]; then
    RIPPLE_WITHOUT_MACROS=1 swift build -c release --product RippleBenchmarks >&2
    binary="$(RIPPLE_WITHOUT_MACROS=1 swift build -c release --show-bin-path)/RippleBenchmarks"
fi
results=${RESULTS:-$(mktemp -d)}
mkdir -p "$results"
js=$(cd "$js" && pwd)
for run in $(seq 1 "${RUNS:-1}"); do
    echo "== pair $run: Ripple" >&2
    "$binary" --columns ripple >"$results/ripple-$run.txt" 2>&1
    echo "== pair $run: alien-signals" >&2
    (cd "$js" && ./run.sh alien312 alien) >"$results/js-$run.txt" 2>&1
    echo "== pair $run ($results)"
    ratios "$results/ripple-$run.txt" "$results/js-$run.txt"
done
