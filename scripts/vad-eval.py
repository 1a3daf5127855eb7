#!/usr/bin/env python3
"""Measures voice activity detectors on labelled clips that it makes: espeak-ng speech (several
voices) between silences, mixed with white, pink and brown noise at several signal-to-noise ratios.
The reference labels come from the clean speech (10 ms frames whose level is within 35 dB of the
utterance's peak, pauses under 200 ms bridged). Compares WebRTC's VAD (this project's Swift binding
of Debian's libwebrtc-audio-processing, through `aibuds audio vad`) with Silero VAD (the ONNX model
of the `silero-vad` package through onnxruntime), both raw and with the same smoothing.

Usage: scripts/vad-eval.py AIBUDS_BINARY OUTDIR [--json FILE]   (run with scripts/vad-venv.sh's python)
"""
import json, os, subprocess, sys, wave, time, resource
import numpy as np

RATE = 16000
FRAME = 160  # 10 ms
SNRS = [None, 20, 10, 5, 0]  # None: clean
NOISES = ["white", "pink", "brown"]
CLIPS_PER_CONDITION = 3
SENTENCES = [
    "Please remind me to call my sister tomorrow morning.",
    "What is the weather going to be like this weekend?",
    "Turn the volume down a little, thank you.",
    "The meeting was moved to half past three on Thursday.",
    "Can you translate this sign into Spanish for me?",
    "I think we should take the train instead of driving.",
    "Read me the last message from the project team.",
    "How far is the nearest pharmacy from here?",
    "Start recording the lecture and summarize it later.",
    "Seven hundred and twenty four kilometres to Lisbon.",
]
VOICES = ["en-us", "en", "en-us+f3", "en+m3", "de", "es"]


def espeak(text, voice, speed, path):
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", path, text], check=True)
    with wave.open(path) as w:
        rate, data = w.getframerate(), np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    # espeak-ng speaks at 22050 Hz: resample to 16 kHz (linear interpolation is enough for labels
    # and detectors alike; both see the same signal).
    t = np.arange(0, len(data) * RATE // rate) * rate / RATE
    return np.interp(t, np.arange(len(data)), data.astype(np.float64))


def labels_of(speech):
    frames = len(speech) // FRAME
    rms = np.sqrt(np.mean(speech[: frames * FRAME].reshape(frames, FRAME) ** 2, axis=1) + 1e-9)
    active = rms > rms.max() * 10 ** (-35 / 20)
    idx = np.flatnonzero(active)
    if len(idx):
        for a, b in zip(idx[:-1], idx[1:]):
            if 1 < b - a <= 20:
                active[a:b] = True
    return active


def noise(kind, n, rng):
    white = rng.standard_normal(n)
    if kind == "white":
        out = white
    elif kind == "pink":
        spectrum = np.fft.rfft(white)
        spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
        out = np.fft.irfft(spectrum, n)
    else:  # brown
        out = np.cumsum(white)
        out -= np.convolve(out, np.ones(801) / 801, mode="same")
    return out / np.sqrt(np.mean(out ** 2))


def make_clips(outdir):
    rng = np.random.default_rng(16)
    tmp = os.path.join(outdir, "utterance.wav")
    clips = []
    for noise_kind in NOISES:
        for snr in SNRS:
            for c in range(CLIPS_PER_CONDITION):
                pieces, labels = [], []
                for u in range(4):
                    gap = np.zeros(int(RATE * rng.uniform(0.4, 1.6)))
                    pieces.append(gap); labels.append(np.zeros(len(gap) // FRAME, bool))
                    text = SENTENCES[rng.integers(len(SENTENCES))]
                    voice = VOICES[rng.integers(len(VOICES))]
                    utt = espeak(text, voice, int(rng.integers(140, 190)), tmp)
                    utt = utt[: len(utt) // FRAME * FRAME] * rng.uniform(0.5, 1.0)
                    pieces.append(utt); labels.append(labels_of(utt))
                tail = np.zeros(int(RATE * rng.uniform(0.4, 1.0)) // FRAME * FRAME)
                pieces.append(tail); labels.append(np.zeros(len(tail) // FRAME, bool))
                pieces = [p[: len(p) // FRAME * FRAME] for p in pieces]
                clean = np.concatenate(pieces)
                label = np.concatenate(labels)
                speech_power = np.mean(clean[np.repeat(label, FRAME)] ** 2)
                level = 10 ** (-60 / 20) if snr is None else 10 ** (-snr / 20)
                mix = clean + noise(noise_kind, len(clean), rng) * np.sqrt(speech_power) * level
                mix = np.clip(mix, -32768, 32767).astype(np.int16)
                name = f"{noise_kind}-{'clean' if snr is None else f'{snr}dB'}-{c}.wav"
                path = os.path.join(outdir, name)
                with wave.open(path, "wb") as w:
                    w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE); w.writeframes(mix.tobytes())
                clips.append({"path": path, "noise": noise_kind, "snr": snr, "labels": label})
    os.remove(tmp)
    return clips


def smooth(raw, onset, hangover):
    """The same onset/hangover smoothing as VoiceActivitySmoother."""
    out = np.zeros(len(raw), bool)
    inside, run, silence = False, 0, 0
    for i, s in enumerate(raw):
        if inside:
            silence = 0 if s else silence + 1
            if silence > hangover:
                inside, run = False, 0
            else:
                out[i] = True
        else:
            run = run + 1 if s else 0
            if run >= onset:
                inside, silence = True, 0
                out[i - run + 1 : i + 1] = True
    return out


def to_10ms(decisions, frame_ms, n):
    """Decisions on frames of `frame_ms` as decisions on the n 10 ms frames (by each one's middle)."""
    index = (np.arange(n) * 10 + 5) // frame_ms
    padded = np.append(np.asarray(decisions, bool), False)
    return padded[np.minimum(index, len(decisions))]


class Silero:
    """Silero VAD v5/v6 through onnxruntime: 512-sample windows with 64 samples of context and a
    recurrent state, as the package's own wrapper feeds it."""

    def __init__(self):
        import importlib.util, onnxruntime
        # The package's own modules import torch; only its model file is needed.
        package = importlib.util.find_spec("silero_vad").submodule_search_locations[0]
        model = os.path.join(package, "data", "silero_vad.onnx")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])

    def probabilities(self, samples):
        x = samples.astype(np.float32) / 32768
        state = np.zeros((2, 1, 128), np.float32)
        context = np.zeros(64, np.float32)
        sr = np.array(RATE, np.int64)
        out = []
        for start in range(0, len(x) - 511, 512):
            chunk = np.concatenate([context, x[start : start + 512]])[None, :]
            prob, state = self.session.run(None, {"input": chunk, "state": state, "sr": sr})
            out.append(float(prob[0][0]))
            context = x[start + 448 : start + 512]
        return out


def metrics(truth, guess):
    truth, guess = np.asarray(truth, bool), np.asarray(guess, bool)
    tp = np.sum(truth & guess); fp = np.sum(~truth & guess); fn = np.sum(truth & ~guess)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main():
    aibuds, outdir = sys.argv[1], sys.argv[2]
    json_out = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    os.makedirs(outdir, exist_ok=True)
    clips = make_clips(outdir)
    silero = Silero()
    detectors = {}  # name -> list of (clip, decisions at 10 ms)
    timing = {"webrtc": 0.0, "silero": 0.0}
    audio_seconds = 0.0
    for clip in clips:
        n = len(clip["labels"])
        audio_seconds += n / 100
        with wave.open(clip["path"]) as w:
            samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
        for mode in (1, 2, 3):
            t0 = time.perf_counter()
            raw = json.loads(subprocess.run([aibuds, "audio", "vad", clip["path"], "--frames", "--raw", "--json",
                                             "--aggressiveness", str(mode)], check=True, capture_output=True).stdout)["frames"]
            timing["webrtc"] += time.perf_counter() - t0
            detectors.setdefault(f"webrtc-{mode} raw", []).append(to_10ms(raw, 30, n))
            detectors.setdefault(f"webrtc-{mode} smoothed", []).append(to_10ms(smooth(raw, 2, 10), 30, n))
        t0 = time.perf_counter()
        probs = silero.probabilities(samples)
        timing["silero"] += time.perf_counter() - t0
        raw = [p >= 0.5 for p in probs]
        detectors.setdefault("silero raw", []).append(to_10ms(raw, 32, n))
        # Smoothing on 32 ms windows with the same 60 ms onset and 300 ms hangover (2 and 10 windows).
        detectors.setdefault("silero smoothed", []).append(to_10ms(smooth(raw, 2, 10), 32, n))
    results = {}
    for name, decisions in detectors.items():
        rows = {}
        for snr in SNRS:
            idx = [i for i, c in enumerate(clips) if c["snr"] == snr]
            truth = np.concatenate([clips[i]["labels"] for i in idx])
            guess = np.concatenate([decisions[i] for i in idx])
            rows["clean" if snr is None else f"{snr} dB"] = metrics(truth, guess)
        truth = np.concatenate([c["labels"] for c in clips]); guess = np.concatenate(decisions)
        rows["all"] = metrics(truth, guess)
        results[name] = rows
    columns = ["clean", "20 dB", "10 dB", "5 dB", "0 dB", "all"]
    print(f"{len(clips)} clips, {audio_seconds / 60:.1f} min of audio, {np.mean(np.concatenate([c['labels'] for c in clips])) * 100:.0f}% speech")
    print("detector            " + "".join(f"{c:>18}" for c in columns) + "   (precision/recall/F1)")
    for name, rows in results.items():
        print(f"{name:20}" + "".join(f"  {rows[c][0]:.2f}/{rows[c][1]:.2f}/{rows[c][2]:.2f}" for c in columns))
    print(f"time: webrtc {timing['webrtc'] / 3:.2f} s per pass (process start included), silero {timing['silero']:.2f} s; "
          f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB (python, silero)")
    if json_out:
        with open(json_out, "w") as f:
            json.dump({k: {c: list(v) for c, v in rows.items()} for k, rows in results.items()}, f, indent=1)


if __name__ == "__main__":
    main()
