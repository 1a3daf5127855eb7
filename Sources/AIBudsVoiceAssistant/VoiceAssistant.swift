import AIBuds
import AIBudsAIFoundation
import AIBudsFoundation
import Foundation

/// The offline voice assistant of a device (the seed's AIBudsVoiceAssistant): it listens to the
/// device's microphone for the wake phrase ("hey glasses") and a command ("take a photo", "stop
/// recording", "volume up", ...), and carries the command out on the device through its capability
/// APIs, all on this machine with no server.
///
/// A command runs only while the device reports its voice assistant service authorized
/// (``/AIBuds/DeviceServiceAuthAPI``, ``/AIBudsFoundation/ServiceAuthState/authorized``); otherwise
/// it is heard and refused (``VoiceAssistantEvent/refused(_:reason:)``), and nothing happens on the
/// device. The authorization is mediated here: when the device is not authorized and the app has
/// registered an ``/AIBuds/OnDeviceVoiceAssistantBridgePlugin``
/// (`AIBudsSDK.setOnDeviceVoiceAssistantPlugin(_:)`), ``authorize()`` asks it and reports the
/// outcome to the device.
///
/// ```swift
/// let assistant = VoiceAssistant(device: glasses)
/// for try await event in assistant.run() {
///     if case .executed(let intent, let detail) = event { print("\(intent.action): \(detail)") }
/// }
/// ```
///
/// Commands the device has no API for (music on glasses) are refused with the reason; commands that
/// concern the app (navigate to a place, translation, questions) are ``VoiceAssistantEvent/forwarded(_:)``.
public final class VoiceAssistant: Sendable {
    /// The device listened to and commanded.
    public let device: any DeviceConvertible
    /// What hears the wake phrase and the commands.
    public let listener: VoiceCommandListener

    /// An assistant for `device`, hearing with `listener` (the offline recognizer, "hey glasses").
    public init(device: any DeviceConvertible, listener: VoiceCommandListener = VoiceCommandListener()) {
        self.device = device
        self.listener = listener
    }

    /// Reads the device's service authorization; when it is not authorized and a voice assistant
    /// bridge plugin is registered, asks the plugin and reports the outcome to the device first.
    /// Returns the state the device then reports. Throws when the device has no service
    /// authorization (``/AIBudsFoundation/SdkErrorCode/deviceNotSupport``) or does not answer.
    @discardableResult
    public func authorize() async throws -> ServiceAuthState {
        let auth = try authorizationAPI()
        var state = try await auth.requestQueryServiceAuthState()
        if state != .authorized, let plugin = AIBudsSDK.onDeviceVoiceAssistantPlugin {
            let success: Bool
            do { success = !(try await plugin.authorizeVoiceAssistant(device: device)).isEmpty } catch { success = false }
            try await auth.reportServiceAuthResult(success)
            state = try await auth.requestQueryServiceAuthState()
        }
        return state
    }

    /// Authorizes (``authorize()``), then listens to the device's microphone and carries out each
    /// command until the iteration stops or the microphone stream ends; a stopped iteration ends
    /// the stream without an error. Throws an
    /// ``/AIBudsFoundation/AIBudsError`` when the device has no microphone stream or service
    /// authorization, or its link fails; an ``/AIBudsAIFoundation/AIError`` when the recognizer does.
    public func run() -> AsyncThrowingStream<VoiceAssistantEvent, any Error> {
        let (stream, output) = AsyncThrowingStream.makeStream(of: VoiceAssistantEvent.self, throwing: (any Error).self)
        let task = Task { [self] in
            do {
                guard let audio = device as? any DeviceAIAudioAPI else {
                    throw AIBudsError(.deviceNotSupport, "\(device.name) has no microphone stream for the voice assistant")
                }
                try await authorize()
                let source = DeviceMicrophoneSource(device: audio, deviceInfo: AISessionDeviceInfo(
                    name: device.name, macAddress: device.macAddress, product: "\(device.product)"))
                for try await event in listener.events(from: source) {
                    output.yield(event)
                    if case .command(let intent, _) = event { output.yield(await execute(intent)) }
                }
                output.finish()
            } catch where Task.isCancelled {
                // The iteration stopped (the consumer went away or was canceled): an end, not a failure.
                output.finish()
            } catch let error as AIError where error.code == .audioSourceFailed && error.underlying is AIBudsError {
                // The device's microphone failed (a disconnect): the device's own error.
                output.finish(throwing: error.underlying!)
            } catch {
                output.finish(throwing: error)
            }
        }
        output.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Carries `intent` out on the device when the service is authorized; returns what came of it.
    public func execute(_ intent: AIIntent) async -> VoiceAssistantEvent {
        guard let auth = device as? any DeviceServiceAuthAPI else {
            return .refused(intent, reason: "\(device.name) offers no service authorization for the voice assistant")
        }
        guard auth.serviceAuthState == .authorized else {
            return .refused(intent, reason: "the voice assistant service is not authorized (\(auth.serviceAuthState))")
        }
        do {
            guard let action = try await perform(intent) else { return .forwarded(intent) }
            return .executed(intent, detail: action)
        } catch let error as UnsupportedCommand {
            return .refused(intent, reason: error.reason)
        } catch {
            return .failed(intent, message: "\(AIBudsError.from(error).message)")
        }
    }

    // MARK: Carrying commands out

    private struct UnsupportedCommand: Error {
        var reason: String
    }

    /// Does `intent` on the device; returns what happened, or nil for a command the app handles.
    private func perform(_ intent: AIIntent) async throws -> String? {
        switch intent.action {
        case .takePhoto:
            return "photo \(try await api(DeviceCameraAPI.self, "a camera").requestPhotoTaking(withCaptureMode: .single))"
        case .startVideo:
            _ = try await api(DeviceCameraAPI.self, "a camera").requestVideoRecording()
            return "video recording started"
        case .startAudioRecording:
            _ = try await api(DeviceAudioRecordingAPI.self, "audio recording").requestStartAudioRecording()
            return "audio recording started"
        case .stopRecording:
            return try await stopRecording()
        case .volumeUp, .volumeDown, .setVolume, .mute:
            return try await changeVolume(intent)
        case .play, .pause, .nextTrack, .previousTrack:
            let command: MusicControlCommand = switch intent.action {
            case .play: .play
            case .pause: .pause
            case .nextTrack: .next
            default: .previous
            }
            try await api(DeviceMusicControlAPI.self, "music control").sendMusicControl(command)
            return "music \(command)"
        case .stopNavigation:
            try await api(TurnByTurnNavigationAPI.self, "navigation").stopNavigation()
            return "navigation stopped"
        case .navigate, .startTranslation, .stopTranslation, .translateText, .ask, .none:
            return nil
        }
    }

    /// Stops the video recording, or the audio recording when no video records.
    private func stopRecording() async throws -> String {
        let camera = device as? any DeviceCameraAPI
        let recorder = device as? any DeviceAudioRecordingAPI
        guard camera != nil || recorder != nil else { throw UnsupportedCommand(reason: "\(device.name) does not record") }
        var firstError: (any Error)?
        if let camera {
            do { return "video \(try await camera.requestStopVideoRecording())" } catch { firstError = error }
        }
        if let recorder {
            do { return "audio \(try await recorder.requestStopAudioRecording())" } catch { firstError = firstError ?? error }
        }
        throw firstError!
    }

    /// Volume steps through the music controls where the device has them, else its volume level.
    private func changeVolume(_ intent: AIIntent) async throws -> String {
        if intent.action == .volumeUp || intent.action == .volumeDown, let music = device as? any DeviceMusicControlAPI {
            try await music.sendMusicControl(intent.action == .volumeUp ? .volumeUp : .volumeDown)
            return "volume \(intent.action == .volumeUp ? "up" : "down")"
        }
        let volume = try api(DeviceVolumeControlAPI.self, "volume control")
        let current = try await volume.requestQueryVolume().intValue
        let maximum = volume.maxVolumeLevel?.intValue ?? 100
        let level: Int = switch intent.action {
        case .volumeUp: min(maximum, current + max(1, maximum / 10))
        case .volumeDown: max(0, current - max(1, maximum / 10))
        case .mute: 0
        default: (intent.level ?? current) * maximum / 100
        }
        try await volume.setVolume(NSNumber(value: level))
        return "volume \(level) of \(maximum)"
    }

    /// The device as `API`, or the refusal that says it cannot do `what`.
    private func api<API>(_ type: API.Type, _ what: String) throws -> API {
        guard let api = device as? API else { throw UnsupportedCommand(reason: "\(device.name) has no \(what)") }
        return api
    }

    private func authorizationAPI() throws -> any DeviceServiceAuthAPI {
        guard let auth = device as? any DeviceServiceAuthAPI else {
            throw AIBudsError(.deviceNotSupport, "\(device.name) offers no service authorization for the voice assistant")
        }
        return auth
    }
}
