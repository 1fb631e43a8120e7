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
#   Benchmarks/count-instructions.sh --store          # instructions per commit or send of the
#   Benchmarks/count-instructions.sh --store commit10 # store scenarios (`CommitLoop`, 10 000 each)
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "count-instructions.sh: valgrind is not installed" >&2; exit 1; }
program=WriteLoop
writes=100000
if [ "${1:-}" = "--store" ]; then
    shift
    program=CommitLoop
    writes=10000
fi
RIPPLE_WITHOUT_MACROS=1 swift build -c release --product "$program" >&2
binary=$(mktemp)
trap 'rm -f "$binary"' EXIT
cp "$(RIPPLE_WITHOUT_MACROS=1 swift build -c release --show-bin-path)/$program" "$binary"
strip --strip-debug "$binary"
chmod +x "$binary"
count() {  # graph, writes, output file
    local log collected
    log=$(valgrind --tool=callgrind --callgrind-out-file="$3" "$binary" "$1" "$2" 2>&1 >/dev/null) || {
        echo "count-instructions.sh: $program $1 $2 failed under valgrind:" >&2
        echo "$log" >&2
        exit 1
    }
    collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$log")
    [ -n "$collected" ] || { echo "count-instructions.sh: no instruction count from valgrind:" >&2; echo "$log" >&2; exit 1; }
    echo "$collected"
}
graphs=("$@")
if [ ${#graphs[@]} -eq 0 ]; then
    if [ "$program" = CommitLoop ]; then
        graphs=(commit0 commit0Selected commit10 commit1000 capturing1000 derived10 selectors1000 select1000 readers1000 send sendEffect mainSend mainCommit10 mainDerived10 mainDerivedFrom10 mainSelect1000 mainSinks10 event10 mainEvent10 batch10 binding bindingElement mainBinding modelRead modelWrite modelBinding createDerived mainSendEffect modelFirstRead createEntityObserver)
    else
        graphs=(deep broad diamond triangle repeated unstable avoidable)
    fi
fi
printf '%-14s %s\n' "$([ "$program" = CommitLoop ] && echo scenario || echo graph)" "instructions per $([ "$program" = CommitLoop ] && echo commit || echo write)"
for graph in "${graphs[@]}"; do
    empty=$(count "$graph" 0 /dev/null)
    out=/dev/null
    [ -n "${KEEP:-}" ] && out=/tmp/callgrind.$graph
    full=$(count "$graph" "$writes" "$out")
    printf '%-14s %d\n' "$graph" $(( (full - empty) / writes ))
done
