#!/usr/bin/env bash
# Fuzz the AIBudsWire decoders with libFuzzer.
#
#   scripts/fuzz.sh [--runs N] [--target cbor|smp] [--make-corpus]
#
# Builds Fuzz/out/fuzz-<target> (swiftc -sanitize=fuzzer,address over the AIBudsWire protocol
# sources and Fuzz/Fuzz<Target>.swift) and runs N inputs (default 20000) per target, starting from
# the seed corpus in Fuzz/corpus/<target> (read only); new interesting inputs go to
# Fuzz/out/corpus-<target>, crash inputs to Fuzz/out/<target>-*, the full log to Fuzz/out/<target>.log.
# --make-corpus regenerates the seed corpus from Fuzz/MakeCorpus.swift first.
# Exits non-zero when a target finds a crash, leak, timeout or out-of-memory input.
set -euo pipefail

cd "$(dirname "$0")/.."
runs=20000
targets=(cbor smp)
make_corpus=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --target) targets=("$2"); shift 2 ;;
        --make-corpus) make_corpus=1; shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "fuzz.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done

swiftc="${SWIFTC:-swiftc}"
out=Fuzz/out
mkdir -p "$out"
# The protocol code of AIBudsWire (its HTTP folder is not part of these decoders).
mapfile -t wire < <(find Sources/AIBudsWire/CBOR Sources/AIBudsWire/Codable Sources/AIBudsWire/SMP \
    Sources/AIBudsWire/Messages -name '*.swift' | sort)

if [[ $make_corpus == 1 ]]; then
    "$swiftc" -O -parse-as-library -module-name MakeCorpus "${wire[@]}" Fuzz/MakeCorpus.swift -o "$out/make-corpus"
    "$out/make-corpus" Fuzz/corpus
fi

for target in "${targets[@]}"; do
    case "$target" in
        cbor) source=Fuzz/FuzzCBOR.swift ;;
        smp) source=Fuzz/FuzzSMP.swift ;;
        *) echo "fuzz.sh: unknown target $target (cbor or smp)" >&2; exit 64 ;;
    esac
    binary="$out/fuzz-$target"
    echo "== building $binary"
    "$swiftc" -O -sanitize=fuzzer,address -parse-as-library -use-ld=lld -module-name "Fuzz$target" \
        "${wire[@]}" "$source" -o "$binary"
    mkdir -p "$out/corpus-$target"
    echo "== fuzzing $target: $runs inputs"
    start=$(date +%s)
    log="$out/$target.log"
    status=0
    SWIFT_BACKTRACE=enable=no "$binary" -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$out/$target-" "$out/corpus-$target" "Fuzz/corpus/$target" \
        >"$log" 2>&1 || status=$?
    grep -vE '^(#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|"|\s+NEW_FUNC|#{6})' "$log" | tail -n 30
    echo "== $target: $runs inputs in $(( $(date +%s) - start )) s, exit status $status (log: $log)"
    [[ $status == 0 ]] || exit "$status"
done
