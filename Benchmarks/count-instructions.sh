#!/bin/bash
# Instructions per write on the kairo graphs, counted by callgrind: no noise, so a change of a
# few instructions shows. Builds `WriteLoop` in release mode, strips its debug information
# (valgrind stops on Swift's), runs it with 0 and with 100 000 writes, and prints the
# difference divided by 100 000. Needs valgrind. Run from anywhere:
#
#   Benchmarks/count-instructions.sh                  # every graph
#   Benchmarks/count-instructions.sh diamond repeated # some of them
#   KEEP=1 Benchmarks/count-instructions.sh repeated  # and keep /tmp/callgrind.repeated for
#                                                     # callgrind_annotate --inclusive=no
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "count-instructions.sh: valgrind is not installed" >&2; exit 1; }
RIPPLE_WITHOUT_MACROS=1 swift build -c release --product WriteLoop >&2
binary=$(mktemp)
trap 'rm -f "$binary"' EXIT
cp "$(RIPPLE_WITHOUT_MACROS=1 swift build -c release --show-bin-path)/WriteLoop" "$binary"
strip --strip-debug "$binary"
chmod +x "$binary"
writes=100000
count() {  # graph, writes, output file
    local log collected
    log=$(valgrind --tool=callgrind --callgrind-out-file="$3" "$binary" "$1" "$2" 2>&1 >/dev/null) || {
        echo "count-instructions.sh: WriteLoop $1 $2 failed under valgrind:" >&2
        echo "$log" >&2
        exit 1
    }
    collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$log")
    [ -n "$collected" ] || { echo "count-instructions.sh: no instruction count from valgrind:" >&2; echo "$log" >&2; exit 1; }
    echo "$collected"
}
graphs=("$@")
[ ${#graphs[@]} -gt 0 ] || graphs=(deep broad diamond triangle repeated unstable avoidable)
printf '%-10s %s\n' graph "instructions per write"
for graph in "${graphs[@]}"; do
    empty=$(count "$graph" 0 /dev/null)
    out=/dev/null
    [ -n "${KEEP:-}" ] && out=/tmp/callgrind.$graph
    full=$(count "$graph" "$writes" "$out")
    printf '%-10s %d\n' "$graph" $(( (full - empty) / writes ))
done
