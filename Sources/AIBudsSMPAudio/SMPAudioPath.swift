import AIBuds
import AIBudsAudio
import AIBudsFoundation
import AIBudsLog
import AIBudsSMP
import AIBudsSync
import AIBudsWire
import Foundation

/// How the SDK paces the AI audio path over SMP (for benchmarks that time it).
public enum SMPAudioPacing {
    /// How long the device may hold a microphone read with nothing new; reads are retransmitted
    /// every such interval.
    public static let micWait = Duration.milliseconds(100)
    /// Frames per speaker request (40 ms).
    public static let speakerBatch = 2
    /// How far ahead of real time the speaker's frames are sent.
    public static let speakerLead = Duration.milliseconds(60)
}

/// The SDK's end of the Audio group (68) on one device: the microphone reader and the speaker
/// writer. The microphone is read with long-polls that are retransmitted every 100 ms (a lost
/// request or answer costs one retransmission, and the device keeps one second of frames), so its
/// frames arrive complete for a recognizer; frames the device had to drop are concealed. The
/// speaker is written in real time, 40 ms per request, 60 ms ahead of playout; the device's jitter
/// buffer conceals what does not arrive in time.
final class SMPAudioPath: Sendable {
    static let micWait = SMPAudioPacing.micWait
    static let speakerBatch = SMPAudioPacing.speakerBatch
    static let speakerLead = SMPAudioPacing.speakerLead

    private struct Microphone {
        var stream: UInt64
        var task: Task<Void, Never>?
    }

    private let microphone = Locked<Microphone?>(nil)
    private let speakerBusy = Locked(false)

    /// An error of the audio path as the SDK's: the codec's (`AudioError`, audio the device sent
    /// that does not decode) is a response the SDK could not parse; SDK errors stay as they are.
    static func sdkError(_ error: any Error) -> any Error {
        if error is AudioError {
            return AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed, "the device's audio does not decode: \(error)", underlying: error)
        }
        return error
    }

    /// Opens the microphone on the device and starts reading it.
    func startMicrophone(session: SMPDeviceSession, logger: any LogService) async throws
        -> AsyncThrowingStream<MicrophoneChunk, any Error>
    {
        guard microphone.withLock({ $0 == nil }) else {
            throw AIBudsError(.deviceBusy, "the microphone stream is already open")
        }
        let started = try await session.request(AudioMicStartRequest())
        let receiver: OpusStreamReceiver
        do {
            try Self.checkFormat(started.format)
            receiver = try OpusStreamReceiver()
        } catch {
            // The device started its microphone: stop it before giving up.
            _ = try? await session.request(AudioMicStopRequest(stream: started.stream))
            throw Self.sdkError(error)
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: MicrophoneChunk.self, throwing: (any Error).self)
        let id = started.stream
        let claimed = microphone.withLock { current -> Bool in
            guard current == nil else { return false }
            current = Microphone(stream: id)
            return true
        }
        guard claimed else {
            _ = try? await session.request(AudioMicStopRequest(stream: id))
            throw AIBudsError(.deviceBusy, "the microphone stream is already open")
        }
        let task = Task { [self] in
            await read(stream: id, session: session, receiver: receiver, into: continuation, logger: logger)
        }
        microphone.withLock { $0?.task = task }
        continuation.onTermination = { [self] termination in
            guard case .cancelled = termination else { return }
            task.cancel()
            Task { try? await stopMicrophone(session: session) }
        }
        return stream
    }

    /// Stops the open microphone stream, if any.
    func stopMicrophone(session: SMPDeviceSession) async throws {
        guard let current = microphone.withLock({ current -> Microphone? in
            defer { current = nil }
            return current
        }) else { return }
        current.task?.cancel()
        do {
            _ = try await session.request(AudioMicStopRequest(stream: current.stream))
        } catch let error as AIBudsError where error.deviceStatusCode == 7 {
            // The device had already ended the stream.
        }
    }

    private func read(stream id: UInt64, session: SMPDeviceSession, receiver: OpusStreamReceiver,
                      into continuation: AsyncThrowingStream<MicrophoneChunk, any Error>.Continuation,
                      logger: any LogService) async {
        let origin = ContinuousClock.now
        var from: UInt64 = 0
        var failures = 0
        let waitMs = UInt64(Self.micWait.components.attoseconds / 1_000_000_000_000_000) + UInt64(Self.micWait.components.seconds) * 1000
        func emit(_ frames: [ReceivedAudioFrame]) {
            for frame in frames {
                continuation.yield(MicrophoneChunk(
                    sequence: frame.sequence,
                    audio: PCMAudio(sampleRate: PCMAudio.speechSampleRate, channels: 1, samples: frame.samples),
                    source: frame.source))
            }
        }
        while !Task.isCancelled {
            let response: AudioMicReadResponse
            do {
                response = try await session.request(
                    AudioMicReadRequest(stream: id, from: from, waitMs: waitMs), timeout: Self.micWait * 4)
                failures = 0
            } catch {
                if Task.isCancelled { break }
                failures += 1
                logger.log(.debug, "audio", "microphone read \(failures) failed: \(error)")
                if failures < 5, (error as? AIBudsError)?.code == .bleCommandExecFailedDueToTimeout { continue }
                microphone.withLock { if $0?.stream == id { $0 = nil } }
                continuation.finish(throwing: error)
                return
            }
            do {
                let now = ContinuousClock.now - origin
                var frames: [ReceivedAudioFrame] = []
                for (offset, packet) in response.frames.enumerated() {
                    frames += try receiver.receive(sequence: response.first + UInt64(offset), packet: [UInt8](packet), at: now)
                }
                frames += try receiver.poll(at: now)
                if !response.frames.isEmpty { from = response.first + UInt64(response.frames.count) }
                emit(frames)
                if response.ended {
                    emit(try receiver.finish())
                    microphone.withLock { if $0?.stream == id { $0 = nil } }
                    continuation.finish()
                    return
                }
            } catch {
                continuation.finish(throwing: Self.sdkError(error))
                return
            }
        }
        emit((try? receiver.finish()) ?? [])
        continuation.finish()
    }

    /// Encodes `audio` and streams it to the device's speaker in real time.
    func play(_ audio: PCMAudio, session: SMPDeviceSession, logger: any LogService) async throws -> SpeakerPlaybackReport {
        let speech: PCMAudio
        let packets: [[UInt8]]
        do {
            speech = try audio.speechFormat()
            packets = try OpusEncoder().encodeFrames(speech)
        } catch {
            throw AIBudsError(.operationFailedDueToWrongParameters, "cannot encode the audio: \(error)")
        }
        guard speakerBusy.withLock({ busy in defer { busy = true }; return !busy }) else {
            throw AIBudsError(.deviceBusy, "the speaker is already playing")
        }
        defer { speakerBusy.withLock { $0 = false } }
        let started = try await session.request(AudioSpeakerStartRequest())
        try Self.checkFormat(started.format)
        let id = started.stream
        let origin = ContinuousClock.now
        let batch = Self.speakerBatch
        await withTaskGroup(of: Void.self) { group in
            for first in stride(from: 0, to: packets.count, by: batch) where !Task.isCancelled {
                let due = origin + .milliseconds(first * OpusFrame.durationMilliseconds) - Self.speakerLead
                try? await Task.sleep(until: due, clock: .continuous)
                let frames = packets[first..<min(first + batch, packets.count)].map { Data($0) }
                group.addTask {
                    do {
                        _ = try await session.request(
                            AudioSpeakerWriteRequest(stream: id, first: UInt64(first), frames: frames),
                            timeout: .milliseconds(240))
                    } catch {
                        logger.log(.debug, "audio", "speaker frames from \(first) were lost: \(error)")
                    }
                }
            }
        }
        let stop = try await session.request(AudioSpeakerStopRequest(stream: id, frames: UInt64(packets.count)))
        return SpeakerPlaybackReport(frames: packets.count, decoded: Int(stop.decoded), recovered: Int(stop.recovered),
                                     concealed: Int(stop.concealed), streamOrigin: origin)
    }

    private static func checkFormat(_ format: AudioStreamFormat) throws {
        guard format == .speech else {
            throw AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed, "the device streams \(format.codec) \(format.rate) Hz × \(format.channels), \(format.frameMs) ms, not Opus 16 kHz mono 20 ms")
        }
    }
}

/// The AI audio path of the SMP glasses and earbuds: the conformances live here, beside the Opus
/// code they need, so that AIBudsSMP (and an app that uses no AI audio) links no audio library.
/// `device as? DeviceAIAudioAPI` finds them in any program that links this module (AIBudsAllInOne
/// does).
extension SMPGlassesDevice: DeviceAIAudioAPI {}

extension SMPEarbudsDevice: DeviceAIAudioAPI {}

extension SMPDevice {
    /// This device's AI audio path (its streams), kept in the device's extension state.
    var audioPath: SMPAudioPath { extensionState.object(SMPAudioPath.self) { SMPAudioPath() } }

    /// Runs a command of the AI audio path on the ready device's SMP session.
    private func runAudio<Value: Sendable>(
        _ command: @escaping @Sendable (SMPDeviceSession) async throws -> Value
    ) async throws -> Value {
        try await perform(SMPDeviceSession.self, requiring: .aiAudio, command)
    }

    /// Opens the microphone stream (Audio `mic start`, then `mic read` long-polls); needs the
    /// `aiAudio` capability.
    public func startMicrophone() async throws -> AsyncThrowingStream<MicrophoneChunk, any Error> {
        let path = audioPath
        let logger = self.logger
        return try await runAudio { session in try await path.startMicrophone(session: session, logger: logger) }
    }

    /// Stops the microphone stream (Audio `mic stop`).
    public func stopMicrophone() async throws {
        let path = audioPath
        try await runAudio { session in try await path.stopMicrophone(session: session) }
    }

    /// Streams `audio` to the speaker (Audio `speaker start`, `speaker write`s, `speaker stop`).
    public func play(_ audio: PCMAudio) async throws -> SpeakerPlaybackReport {
        let path = audioPath
        let logger = self.logger
        return try await runAudio { session in try await path.play(audio, session: session, logger: logger) }
    }
}
