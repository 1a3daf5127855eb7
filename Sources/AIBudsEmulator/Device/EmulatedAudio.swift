import AIBudsAudio
import AIBudsSync
import AIBudsWire
import Foundation

/// What the emulated microphone hears and where the emulated speaker's sound is written.
public struct EmulatedAudioIO: Sendable {
    /// The microphone's sound, 16 kHz mono: a stream plays it from its start, then silence. Nil:
    /// silence only.
    public var microphone: PCMAudio?
    /// The WAV file the speaker writes (everything it played, rewritten at each stream's end).
    public var speakerOut: URL?

    /// Creates the device's audio input and output.
    public init(microphone: PCMAudio? = nil, speakerOut: URL? = nil) {
        self.microphone = microphone
        self.speakerOut = speakerOut
    }

    /// Reads the microphone's file (WAV or Ogg/Opus, any rate) as 16 kHz mono.
    public static func load(microphone file: URL?, speakerOut: URL?) throws(EmulatorError) -> EmulatedAudioIO {
        guard let file else { return EmulatedAudioIO(speakerOut: speakerOut) }
        do {
            return EmulatedAudioIO(microphone: try AudioFile.read(from: file).speechFormat(), speakerOut: speakerOut)
        } catch {
            throw EmulatorError(.invalidConfiguration, "--mic \(file.path): \(error)")
        }
    }
}

/// When a speaker frame played, for latency measurements.
public struct SpeakerPlayout: Sendable, Equatable {
    /// The frame's sequence number.
    public var sequence: UInt64
    /// The device clock's uptime when the frame left the jitter buffer.
    public var at: Duration
    /// How the frame was made.
    public var source: ReceivedAudioFrame.Source
}

/// The device's AI audio path: one microphone stream that encodes the microphone's sound into
/// 20 ms Opus frames in real time (kept for one second), and one speaker stream that puts received
/// frames in order, decodes them (FEC or concealment for lost ones) and records what it plays.
/// Thread-safe; time comes from the device's clock.
public final class EmulatedAudio: Sendable {
    /// How many microphone frames the device keeps for a slow or lossy reader (one second).
    public static let micBufferFrames: UInt64 = 50

    private struct Mic {
        var id: UInt64
        var started: Duration
        var encoder: OpusEncoder
        var frames: [UInt64: Data] = [:]
        var produced: UInt64 = 0
    }

    private struct Speaker {
        var id: UInt64
        var receiver: OpusStreamReceiver
    }

    private struct State {
        var mic: Mic?
        var endedMic: UInt64?
        var speaker: Speaker?
        var nextID: UInt64 = 1
        var played: [Int16] = []
        var playouts: [SpeakerPlayout] = []
    }

    private let io: EmulatedAudioIO
    private let clock: any EmulatorClock
    private let state = Locked(State())
    private let frameSamples = OpusFrame.samples()
    private let frameDuration = Duration.milliseconds(OpusFrame.durationMilliseconds)

    init(io: EmulatedAudioIO, clock: any EmulatorClock) {
        self.io = io
        self.clock = clock
    }

    /// Whether a microphone or speaker stream is open (the device is in its AI conversation).
    public var isStreaming: Bool { state.withLock { $0.mic != nil || $0.speaker != nil } }

    /// The open microphone stream's id and its start on the device clock.
    public var microphoneStream: (id: UInt64, started: Duration)? {
        state.withLock { state in state.mic.map { ($0.id, $0.started) } }
    }

    /// Everything the speaker has played, 16 kHz mono.
    public var speakerAudio: PCMAudio {
        PCMAudio(sampleRate: PCMAudio.speechSampleRate, channels: 1, samples: state.withLock { $0.played })
    }

    /// When each speaker frame played, in order.
    public var speakerPlayouts: [SpeakerPlayout] { state.withLock { $0.playouts } }

    // MARK: - Microphone

    /// Opens the microphone stream; `tick` is called at each new frame while it is open.
    func startMicrophone(tick: @escaping @Sendable () -> Void) throws(EmulatorError) -> UInt64 {
        let now = clock.uptime
        let id = try state.withLock { state throws(EmulatorError) -> UInt64 in
            guard state.mic == nil else { throw EmulatorError(.busy, "the microphone is already streaming") }
            let encoder: OpusEncoder
            do { encoder = try OpusEncoder() } catch { throw EmulatorError(.io, "cannot start the Opus encoder: \(error)") }
            let id = state.nextID
            state.nextID += 1
            state.mic = Mic(id: id, started: now, encoder: encoder)
            return id
        }
        scheduleTick(stream: id, frame: 1, tick: tick)
        return id
    }

    private func scheduleTick(stream: UInt64, frame: UInt64, tick: @escaping @Sendable () -> Void) {
        guard let started = state.withLock({ $0.mic?.id == stream ? $0.mic?.started : nil }) else { return }
        let due = started + frameDuration * Int(frame)
        clock.schedule(after: max(.zero, due - clock.uptime)) { [weak self] in
            guard let self, self.state.withLock({ $0.mic?.id == stream }) else { return }
            tick()
            self.scheduleTick(stream: stream, frame: frame + 1, tick: tick)
        }
    }

    /// Closes the microphone stream `id` (readers then get `ended`).
    func stopMicrophone(_ id: UInt64) throws(EmulatorError) {
        try state.withLock { state throws(EmulatorError) in
            guard state.mic?.id == id else { throw EmulatorError(.badState, "microphone stream \(id) is not open") }
            state.mic = nil
            state.endedMic = id
        }
    }

    /// Whether `id` names the open microphone stream or the one that last ended.
    func knowsMicrophone(_ id: UInt64) -> Bool {
        state.withLock { $0.mic?.id == id || $0.endedMic == id }
    }

    /// The frames of stream `id` from `from` on that fit `budget` payload bytes; nil when none is
    /// ready yet and the stream is still open.
    func microphoneFrames(_ id: UInt64, from: UInt64, budget: Int) -> AudioMicReadResponse? {
        let now = clock.uptime
        return state.withLock { state -> AudioMicReadResponse? in
            guard var mic = state.mic, mic.id == id else {
                return AudioMicReadResponse(first: from, frames: [], ended: true)
            }
            produce(&mic, until: now)
            state.mic = mic
            let first = max(from, mic.produced > Self.micBufferFrames ? mic.produced - Self.micBufferFrames : 0)
            var frames: [Data] = []
            var size = 0
            var sequence = first
            while sequence < mic.produced, let frame = mic.frames[sequence], size + frame.count + 3 <= budget {
                frames.append(frame)
                size += frame.count + 3
                sequence += 1
            }
            return frames.isEmpty ? nil : AudioMicReadResponse(first: first, frames: frames, ended: false)
        }
    }

    /// Encodes every frame whose 20 ms have passed by `now`; keeps the last second.
    private func produce(_ mic: inout Mic, until now: Duration) {
        let due = UInt64(max(0, (now - mic.started) / frameDuration))
        while mic.produced < due {
            let start = Int(mic.produced) * frameSamples
            var samples = [Int16](repeating: 0, count: frameSamples)
            if let source = io.microphone?.samples, start < source.count {
                let end = min(start + frameSamples, source.count)
                samples.replaceSubrange(0..<(end - start), with: source[start..<end])
            }
            let packet = (try? mic.encoder.encode(samples[...])) ?? []
            mic.frames[mic.produced] = Data(packet)
            if mic.produced >= Self.micBufferFrames { mic.frames[mic.produced - Self.micBufferFrames] = nil }
            mic.produced += 1
        }
    }

    // MARK: - Speaker

    /// Opens a speaker stream.
    func startSpeaker() throws(EmulatorError) -> UInt64 {
        return try state.withLock { state throws(EmulatorError) -> UInt64 in
            guard state.speaker == nil else { throw EmulatorError(.busy, "the speaker is already streaming") }
            let receiver: OpusStreamReceiver
            do { receiver = try OpusStreamReceiver() } catch { throw EmulatorError(.io, "cannot start the Opus decoder: \(error)") }
            let id = state.nextID
            state.nextID += 1
            state.speaker = Speaker(id: id, receiver: receiver)
            return id
        }
    }

    /// Takes frames of speaker stream `id`, numbered from `first`, and plays those whose turn came.
    func writeSpeaker(_ id: UInt64, first: UInt64, frames: [Data]) throws(EmulatorError) {
        let now = clock.uptime
        try state.withLock { state throws(EmulatorError) in
            guard let speaker = state.speaker, speaker.id == id else {
                throw EmulatorError(.badState, "speaker stream \(id) is not open")
            }
            guard first <= UInt64(UInt32.max) else {
                throw EmulatorError(.invalidArgument, "frame number \(first) is past any stream's length")
            }
            for (offset, frame) in frames.enumerated() {
                let played = (try? speaker.receiver.receive(sequence: first + UInt64(offset), packet: [UInt8](frame), at: now)) ?? []
                Self.play(played, at: now, into: &state)
            }
        }
    }

    /// Ends speaker stream `id` after `frames` frames: the rest is played (lost frames concealed)
    /// and the speaker file rewritten.
    func stopSpeaker(_ id: UInt64, frames total: UInt64) throws(EmulatorError) -> AudioSpeakerStopResponse {
        let now = clock.uptime
        let (response, played) = try state.withLock { state throws(EmulatorError) -> (AudioSpeakerStopResponse, [Int16]) in
            guard let speaker = state.speaker, speaker.id == id else {
                throw EmulatorError(.badState, "speaker stream \(id) is not open")
            }
            let receiver = speaker.receiver
            // A stream's end at most 5 s of concealment past what came: a lying count costs little.
            let rest = (try? receiver.finish(frameCount: min(total, receiver.nextSequence + 250))) ?? []
            Self.play(rest, at: now, into: &state)
            state.speaker = nil
            let counts = receiver.counts
            return (AudioSpeakerStopResponse(decoded: UInt64(counts.decoded), recovered: UInt64(counts.recovered),
                                             concealed: UInt64(counts.concealed)), state.played)
        }
        if let url = io.speakerOut {
            do {
                try WAVFile.write(PCMAudio(sampleRate: PCMAudio.speechSampleRate, channels: 1, samples: played), to: url)
            } catch {
                throw EmulatorError(.io, "cannot write the speaker file: \(error)")
            }
        }
        return response
    }

    private static func play(_ frames: [ReceivedAudioFrame], at now: Duration, into state: inout State) {
        for frame in frames {
            state.played += frame.samples
            state.playouts.append(SpeakerPlayout(sequence: frame.sequence, at: now, source: frame.source))
        }
    }

    /// Ends every stream (the device left its AI conversation or turned off).
    func endAll() {
        state.withLock { state in
            if let mic = state.mic { state.endedMic = mic.id }
            state.mic = nil
            state.speaker = nil
        }
    }
}
