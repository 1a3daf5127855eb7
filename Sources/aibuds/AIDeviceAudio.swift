import AIBuds
import AIBudsAIFoundation
import AIBudsAudio
import Foundation

/// A device's microphone as a session's audio source (the device's AI audio path, Opus over its
/// control link); ending the session's listening stops the microphone.
struct DeviceMicrophoneSource: AIAudioSource {
    let device: any DeviceAIAudioAPI
    let deviceInfo: AISessionDeviceInfo

    func audioChunks() -> AsyncThrowingStream<PCMAudio, any Error> {
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

/// A device's speaker as a session's sink: each piece is played in real time before the next.
struct DeviceSpeakerSink: AIAudioSink {
    let device: any DeviceAIAudioAPI

    func play(_ audio: PCMAudio) async throws {
        _ = try await device.play(audio)
    }

    func finish() async throws {}
}

/// A device connected for an `aibuds ai` session, with its microphone and speaker.
struct AIDeviceConnection {
    let device: any DeviceConvertible
    let audio: any DeviceAIAudioAPI
    let name: String

    /// Finds and connects the device that `spec` names; it must have the AI audio path.
    static func open(_ spec: String) async throws -> AIDeviceConnection {
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find(spec)
        let device = try await DeviceCommandSupport.connect(found, naming: spec)
        guard let audio = device as? any DeviceAIAudioAPI else {
            await device.disconnectAndWait()
            throw CommandFailure.failure("\(spec) has no AI audio path (microphone and speaker streams)")
        }
        // The device's own name for records and the dashboard; the address the user gave when it has none.
        return AIDeviceConnection(device: device, audio: audio, name: device.name.isEmpty ? spec : device.name)
    }

    /// The microphone as a source.
    var source: DeviceMicrophoneSource {
        DeviceMicrophoneSource(device: audio, deviceInfo: AISessionDeviceInfo(
            name: name, macAddress: device.macAddress, product: "\(device.product)"))
    }

    /// The speaker as a sink.
    var sink: DeviceSpeakerSink { DeviceSpeakerSink(device: audio) }

    /// Disconnects.
    func close() async {
        await device.disconnectAndWait()
    }
}
