#!/usr/bin/env bash
# Fuzz every parser a device or the network can reach, with libFuzzer.
#
#   scripts/fuzz.sh [--runs N] [--target NAME]... [--make-corpus]
#
# Targets (Fuzz/Fuzz<Name>.swift; docs/reliability.md lists their invariants and figures):
#   cbor          the strict CBOR decoder (and the Media list fast path against the generic one)
#   smp           SMP packets and every message of every group
#   http          HTTP/1.1 request and response heads, ranges, media paths, bearer tokens
#   medialist     Media list pages: the plain reader against the generic decoder, differentially
#   announcement  the discovery announcement (JSON)
#   manifest      the emulator's --manifest JSON
#   ledger        the import ledger's JSON Lines reader
#   gcsv          the six-axis log (.gcsv) parser of video stabilization
#   lens          the lens-profile JSON parser of video stabilization
#   mcuboot       the MCUboot firmware image parser (header, TLVs, hash)
# Each target links the project's library-free modules (AIBudsWire and AIBudsFoundation with all
# they import, as Package.swift says, and AIBudsFiles) built as static modules with
# testing enabled (Fuzz/out/modules, rebuilt when a source is newer), plus the sources it names.
# Everything is built with swiftc -sanitize=fuzzer,address.
# Each target runs N inputs (default 20000) starting from the seed corpus in Fuzz/corpus/<target>
# (read only); new interesting inputs go to Fuzz/out/corpus-<target>, crash inputs to
# Fuzz/out/<target>-*, the full log to Fuzz/out/<target>.log.
# --make-corpus regenerates the seed corpus from Fuzz/MakeCorpus.swift first.
# Exits non-zero when a target finds a crash, leak, timeout or out-of-memory input.
set -euo pipefail

cd "$(dirname "$0")/.."
runs=20000
all_targets=(cbor smp http medialist announcement manifest ledger gcsv lens mcuboot)
targets=()
make_corpus=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --target) targets+=("$2"); shift 2 ;;
        --make-corpus) make_corpus=1; shift ;;
        -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "fuzz.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

swiftc="${SWIFTC:-swiftc}"
out=Fuzz/out
modules="$out/modules"
mkdir -p "$out" "$modules"
flags=(-O -sanitize=fuzzer,address -parse-as-library)

# Builds module $1 from the Swift files under Sources/$1 as a static library with its
# .swiftmodule in $modules, unless it is newer than every source and than the libraries of the
# modules it imports ($2...).
build_module() {
    local name="$1" library="$modules/lib$1.a" dependency stale=0
    shift
    if [[ ! -f "$library" || -n "$(find "Sources/$name" -name '*.swift' -newer "$library" | head -n 1)" ]]; then stale=1; fi
    for dependency in "$@"; do if [[ "$modules/lib$dependency.a" -nt "$library" ]]; then stale=1; fi; done
    [[ $stale == 1 ]] || return 0
    echo "== building module $name"
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
    "$swiftc" "${module_flags[@]}" -enable-testing -package-name AIBuds -module-name "$name" -I "$modules" -emit-module \
        -emit-module-path "$modules/$name.swiftmodule" -emit-library -static "${sources[@]}" -o "$library"
}

# The modules every target links: AIBudsWire and AIBudsFoundation with every module they import,
# read from Package.swift (so a new dependency needs no edit here), each line a module and the
# modules it imports, each after those.
graph=$(swift package dump-package | python3 -c '
import json, sys
targets = {t["name"]: [d["byName"][0] for d in t["dependencies"] if "byName" in d] for t in json.load(sys.stdin)["targets"]}
order = []
def visit(name):
    if name in order: return
    for dependency in targets[name]: visit(dependency)
    order.append(name)
for root in ["AIBudsFiles", "AIBudsWire", "AIBudsFoundation"]: visit(root)
for name in order: print(name, *targets[name])
')
[[ -n "$graph" ]] || { echo "fuzz.sh: no module graph from Package.swift" >&2; exit 1; }
mapfile -t module_graph <<<"$graph"
build_modules() {
    local line
    for line in "${module_graph[@]}"; do
        # shellcheck disable=SC2086  # the module's name, then the names of those it imports
        build_module $line
    done
}
linking() {
    local index
    echo -I "$modules" -L "$modules"
    for (( index = ${#module_graph[@]} - 1; index >= 0; index-- )); do echo "-l${module_graph[index]%% *}"; done
}

if [[ $make_corpus == 1 ]]; then
    # The corpus generator is an ordinary program: modules without the fuzzer's instrumentation.
    module_flags=(-O -parse-as-library)
    modules="$out/modules-plain"
    mkdir -p "$modules"
    build_modules
    # shellcheck disable=SC2046
    "$swiftc" -O -parse-as-library -package-name AIBuds -module-name MakeCorpus $(linking) Fuzz/MakeCorpus.swift -o "$out/make-corpus"
    "$out/make-corpus" Fuzz/corpus
fi

module_flags=("${flags[@]}")
modules="$out/modules"
build_modules

for target in "${targets[@]}"; do
    binary="$out/fuzz-$target"
    extra=()
    case "$target" in
        cbor) source=Fuzz/FuzzCBOR.swift ;;
        smp) source=Fuzz/FuzzSMP.swift ;;
        http) source=Fuzz/FuzzHTTP.swift ;;
        medialist) source=Fuzz/FuzzMediaList.swift ;;
        announcement) source=Fuzz/FuzzAnnouncement.swift ;;
        mcuboot) source=Fuzz/FuzzMCUboot.swift ;;
        manifest)
            source=Fuzz/FuzzManifest.swift
            extra=(Sources/AIBudsEmulator/Media/MediaSources.swift Sources/AIBudsEmulator/Media/MediaRecord.swift
                Sources/AIBudsEmulator/Media/MediaFileKind.swift Sources/AIBudsEmulator/Media/GeneratedContent.swift
                Sources/AIBudsEmulator/Support/EmulatorError.swift Sources/AIBudsEmulator/Support/SeededRandom.swift) ;;
        ledger) source=Fuzz/FuzzLedger.swift; extra=(Sources/AIBudsImport/Import/ImportLedger.swift) ;;
        gcsv) source=Fuzz/FuzzGcsv.swift; mapfile -t extra < <(find Sources/AIBudsStabilization/IMU -name '*.swift' | sort) ;;
        lens)
            source=Fuzz/FuzzLens.swift
            mapfile -t extra < <(find Sources/AIBudsStabilization/IMU Sources/AIBudsStabilization/Lens -name '*.swift' | sort) ;;
        *) echo "fuzz.sh: unknown target $target (${all_targets[*]})" >&2; exit 64 ;;
    esac
    echo "== building $binary"
    # shellcheck disable=SC2046
    "$swiftc" "${flags[@]}" -use-ld=lld -package-name AIBuds -module-name "Fuzz$target" $(linking) "${extra[@]}" "$source" -o "$binary"
    mkdir -p "$out/corpus-$target" "Fuzz/corpus/$target"
    echo "== fuzzing $target: $runs inputs"
    start=$(date +%s)
    log="$out/$target.log"
    status=0
    SWIFT_BACKTRACE=enable=no "$binary" -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$out/$target-" "$out/corpus-$target" "Fuzz/corpus/$target" \
        </dev/null >"$log" 2>&1 || status=$?
    grep -vE '^(#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|"|\s+NEW_FUNC|#{6})' "$log" | tail -n 30
    echo "== $target: $runs inputs in $(( $(date +%s) - start )) s, exit status $status (log: $log)"
    [[ $status == 0 ]] || exit "$status"
done
