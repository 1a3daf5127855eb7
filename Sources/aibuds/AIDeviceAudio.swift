import AIBuds
import AIBudsAIFoundation
import AIBudsAudio
import AIBudsVoiceAssistant
import Foundation

/// A device connected for an `aibuds ai` session, with its microphone and speaker.
struct AIDeviceConnection {
    let device: any DeviceConvertible
    let audio: any DeviceAIAudioAPI
    let name: String

    /// Finds and connects the device that `spec` names; it must have the AI audio path.
    static func open(_ spec: String) async throws -> AIDeviceConnection {
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find(spec)
        let (device, audio) = try await DeviceCommandSupport.connect(
            found, naming: spec, as: (any DeviceAIAudioAPI).self, lacking: "has no AI audio path (microphone and speaker streams)")
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
