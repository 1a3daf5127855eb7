import AIBuds
import AIBudsAIFoundation
import AIBudsAudio

/// A device's microphone as an AI session's audio source (the device's AI audio path, Opus over
/// its control link); ending the session's listening stops the microphone.
public struct DeviceMicrophoneSource: AIAudioSource {
    /// The device whose microphone is heard.
    public let device: any DeviceAIAudioAPI
    /// The device as the session's observers and records show it.
    public let deviceInfo: AISessionDeviceInfo

    /// The microphone of `device`, described as `deviceInfo`.
    public init(device: any DeviceAIAudioAPI, deviceInfo: AISessionDeviceInfo) {
        self.device = device
        self.deviceInfo = deviceInfo
    }

    /// Opens the microphone and streams its audio until the device ends the stream or the
    /// iteration stops (which stops the microphone).
    public func audioChunks() -> AsyncThrowingStream<PCMAudio, any Error> {
        let device = self.device
        let (stream, output) = AsyncThrowingStream.makeStream(of: PCMAudio.self, throwing: (any Error).self)
        let task = Task {
            do {
                for try await chunk in try await device.startMicrophone() { output.yield(chunk.audio) }
                output.finish()
            } catch {
                output.finish(throwing: error)
            }
            try? await device.stopMicrophone()
        }
        output.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// A device's speaker as an AI session's sink: each piece is played in real time before the next.
public struct DeviceSpeakerSink: AIAudioSink {
    /// The device whose speaker plays.
    public let device: any DeviceAIAudioAPI

    /// A sink that plays on `device`'s speaker over its AI audio path.
    public init(device: any DeviceAIAudioAPI) {
        self.device = device
    }

    /// Plays `audio` on the device and returns when it has played.
    public func play(_ audio: PCMAudio) async throws {
        _ = try await device.play(audio)
    }

    /// Nothing to flush: each piece played as it came.
    public func finish() async throws {}
}
