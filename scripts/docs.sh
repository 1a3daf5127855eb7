#!/usr/bin/env bash
# Builds the API documentation as a static site in .build/docs/: the guide's articles
# (Documentation/AIBuds.docc) and the reference of every library product of Package.swift. Fails
# (exit 1) on any DocC warning. View it through a web server (DocC's pages load their content
# with fetch, which browsers refuse from file:// URLs):
#
#   python3 -m http.server -d .build/docs 8000      # then open http://127.0.0.1:8000/
#
#   scripts/docs.sh [--no-build]
#
#   DOCS_JOBS=N  conversions at a time (default: the number of cores)
#   --no-build   use the debug build as it is (scripts/test.sh has just built, with the same flags).
#                Without it the script first runs the test script's build command without the
#                tests, `swift build -Xswiftc -warnings-as-errors`: the same compiler flags, so an
#                existing debug build is reused and only changed modules are compiled.
#
# Only the toolchain's tools, no package plugin (none can be fetched here):
#
# 1. swift-symbolgraph-extract reads each library module from the debug build's .swiftmodule, with
#    the search paths and C module maps SwiftPM compiled it with (from .build/debug.yaml), so
#    nothing is compiled again. Public symbols only; members a type only inherits (default
#    implementations, Equatable's !=, ...) are left out.
# 2. `docc convert` makes one archive per module, in dependency order. DocC documents one module
#    per archive, so this is the shape of the DocC plugin's --enable-experimental-combined-
#    documentation: each archive is built with --enable-experimental-external-link-support and gets
#    the archives of the modules it depends on as --dependency, so a doc comment can link a symbol
#    of a module below it with an absolute link, ``/AIBudsFoundation/AIBudsError``.
# 3. The guide is one more archive, converted last with every module archive as a dependency, so
#    an article links any documented symbol (``/AIBuds/AIBudsSDK``) and any module (``/AIBuds``).
# 4. `docc merge` joins the archives into one (its synthesized page at /documentation/ lists the
#    guide and the modules), and `docc process-archive transform-for-static-hosting` turns that
#    into the site, once and in place (each archive converted for static hosting on its own would
#    have every page's index.html written twice). The top index.html sends a visitor to the
#    guide's landing page.
#
# Every `docc convert` runs with --warnings-as-errors: a broken symbol link, an undocumented or
# unknown parameter, a malformed directive or a cycle of topic sections stops the script at that
# archive, with DocC's diagnostics; scripts/test.sh runs it after the build.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
for argument in "$@"; do
  case "$argument" in
    --no-build) build=0 ;;
    *) echo "usage: scripts/docs.sh [--no-build]" >&2; exit 64 ;;
  esac
done

started=$(date +%s)
work=.build/docs-work
site=.build/docs
catalog=Documentation/AIBuds.docc
guide=AIBuds-SDK          # the guide's root page (the catalog's AIBuds-SDK.md): /documentation/aibuds-sdk/
docc=$(command -v docc || true)
[ -n "$docc" ] || docc=$(dirname "$(readlink -f "$(command -v swift)")")/docc
extract=$(dirname "$docc")/swift-symbolgraph-extract
stage() { echo "== docs: $1 ($(( $(date +%s) - started )) s)"; }
jobs=${DOCS_JOBS:-$(nproc)}

if [ "$build" = 1 ]; then
  stage build
  swift build -Xswiftc -warnings-as-errors
fi
[ -f .build/debug.yaml ] || { echo "docs: no debug build (.build/debug.yaml); run swift build first" >&2; exit 1; }

# The last run's output (about 17,000 small files) is moved aside and deleted in the background
# while the symbol graphs and archives are made: on a busy disk its deletion alone took a minute.
trash=.build/docs-trash
mkdir -p "$trash"
for old in "$work" "$site"; do
  if [ -e "$old" ]; then mv "$old" "$trash/$(basename "$old").$$.$(date +%s%N)"; fi
done
rm -rf "$trash" &
cleaning=$!
# The module archives get an empty catalog: without one, docc takes a .docc folder it finds below
# the current directory (the guide's) as the module's.
mkdir -p "$work/symbols" "$work/archives" "$work/empty.docc"

# The documented modules, in dependency order, each with the documented modules it depends on
# (directly or not): every library product of Package.swift. Lines: LEVEL MODULE DEPENDENCY ...
swift package dump-package > "$work/package.json"
python3 - "$work/package.json" > "$work/modules.txt" <<'EOF'
import json, sys
package = json.load(open(sys.argv[1]))
libraries = [p["name"] for p in package["products"] if "library" in p["type"]]
direct = {}
for target in package["targets"]:
    direct[target["name"]] = [
        dependency[kind][0] for dependency in target["dependencies"]
        for kind in ("byName", "target", "product") if kind in dependency
    ]
def below(name, seen):
    for dependency in direct.get(name, []):
        if dependency not in seen:
            seen.add(dependency)
            below(dependency, seen)
    return seen
order, visited = [], set()
def visit(name):
    if name in visited:
        return
    visited.add(name)
    for dependency in direct.get(name, []):
        visit(dependency)
    if name in libraries:
        order.append(name)
for name in libraries:
    visit(name)
# Level: 0 for a module with no documented dependency, else one more than its deepest one; the
# modules of one level can be converted at the same time.
level = {}
for name in order:
    level[name] = 1 + max([level[d] for d in direct.get(name, []) if d in level] + [-1])
for name in order:
    print(" ".join([str(level[name]), name] + [d for d in order if d in below(name, set())]))
EOF

# The flags SwiftPM compiled MODULE with that matter for reading its .swiftmodule: search paths,
# C module maps and include paths, the module cache, the target and the language mode.
module_flags() {
  python3 - .build/debug.yaml "$1" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
match = re.search(r'^  "C\.%s-[^"]*-debug\.module":$' % re.escape(sys.argv[2]), text, re.M)
if not match:
    sys.exit("docs: %s is not in the debug build; run swift build" % sys.argv[2])
args_at = text.index("args: ", match.end())
args = json.loads(text[args_at + 6:text.index("\n", args_at)])
i = 1
while i < len(args):
    if args[i] in ("-I", "-Xcc", "-module-cache-path", "-target", "-swift-version"):
        print(args[i]); print(args[i + 1]); i += 2
    else:
        if args[i].startswith("-I"):
            print(args[i])
        i += 1
EOF
}

# Runs `docc convert` for WHAT; on any diagnostic prints it and stops (the log keeps everything).
log="$work/docc.log"
: > "$log"
convert() {
  local what=$1 output status=0 count
  shift
  output=$("$docc" convert "$@" --warnings-as-errors --no-transform-for-static-hosting 2>&1) || status=$?
  printf '== %s\n%s\n' "$what" "$output" >> "$log"
  count=$(printf '%s\n' "$output" | grep -cE '^(warning|error):' || true)
  if [ "$status" != 0 ] || [ "$count" != 0 ]; then
    printf '%s\n' "$output" >&2
    echo "docs: $what: $count DocC warning(s) or error(s) (exit $status); the output is in $log" >&2
    exit 1
  fi
}

stage "symbol graphs"
while read -r _ module _; do
  mkdir -p "$work/symbols/$module"
  mapfile -t flags < <(module_flags "$module")
  "$extract" -module-name "$module" "${flags[@]}" -minimum-access-level public -skip-synthesized-members \
    -emit-extension-block-symbols -output-dir "$work/symbols/$module"
done < "$work/modules.txt"

stage "module archives ($(wc -l < "$work/modules.txt") modules, $jobs at a time)"
# A failed conversion stops the script; the conversions still running are ended with it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
# One level after the other; within a level up to $jobs conversions run at once (docc spends
# much of a small module's time starting and writing files).
convert_module() {
  local module=$1 dependency dependency_flags=()
  shift
  for dependency in "$@"; do dependency_flags+=(--dependency "$work/archives/$dependency.doccarchive"); done
  convert "$module" "$work/empty.docc" --additional-symbol-graph-dir "$work/symbols/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --enable-experimental-external-link-support "${dependency_flags[@]}" \
    --output-path "$work/archives/$module.doccarchive"
}
for level in $(cut -d' ' -f1 "$work/modules.txt" | sort -nu); do
  running=()
  while read -r module_level module dependencies; do
    [ "$module_level" = "$level" ] || continue
    if [ "${#running[@]}" -ge "$jobs" ]; then
      wait -n -p finished "${running[@]}" || exit 1
      for i in "${!running[@]}"; do [ "${running[$i]}" != "$finished" ] || unset 'running[i]'; done
      running=("${running[@]}")
    fi
    # shellcheck disable=SC2086 # the dependencies are words
    convert_module "$module" $dependencies < /dev/null &
    running+=($!)
  done < "$work/modules.txt"
  for pid in "${running[@]}"; do wait "$pid" || exit 1; done
done

stage "guide"
archives=("$work/archives/$guide.doccarchive")
all=()
while read -r _ module _; do
  all+=(--dependency "$work/archives/$module.doccarchive")
  archives+=("$work/archives/$module.doccarchive")
done < "$work/modules.txt"
convert "the guide ($catalog)" "$catalog" "${all[@]}" --enable-experimental-external-link-support --output-path "$work/archives/$guide.doccarchive"

stage "site"
"$docc" merge "${archives[@]}" --synthesized-landing-page-name "AIBuds SDK" \
  --synthesized-landing-page-kind "Documentation" --synthesized-landing-page-topics-style list \
  --output-path "$work/merged.doccarchive" >> "$log" 2>&1 || { echo "docs: docc merge failed; see $log" >&2; exit 1; }
# In place, then moved: no second copy of the merged archive's thousands of files.
"$docc" process-archive transform-for-static-hosting "$work/merged.doccarchive" >> "$log" 2>&1 \
  || { echo "docs: the static-hosting transform failed; see $log" >&2; exit 1; }
mv "$work/merged.doccarchive" "$site"
landing="documentation/$(echo "$guide" | tr '[:upper:]' '[:lower:]')/"
[ -f "$site/$landing/index.html" ] || { echo "docs: the guide's page $landing is missing" >&2; exit 1; }
# DocC's app has no page at the site's root: the top index.html forwards to the guide.
cat > "$site/index.html" <<EOF
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>AIBuds SDK documentation</title>
<meta http-equiv="refresh" content="0; url=$landing">
</head>
<body>
<p><a href="$landing">AIBuds SDK: the guide</a> · <a href="documentation/">every module</a></p>
</body>
</html>
EOF
wait "$cleaning" || true
pages=$(find "$site/data/documentation" -name '*.json' | wc -l)
echo "docs: $site/index.html: $pages pages, 0 DocC warnings, $(( $(date +%s) - started )) s"
