import AIBudsFoundation
import Foundation

// Services and interaction features, over the Device group's settings and actions (docs/protocol.md
// §3, "Controls"), and live streaming (the Live group).

/// The remote shutter (the device's button takes a photo on the phone).
public protocol DeviceRemoteShutterAPI: DeviceAPI {
    /// Tells the device whether the app's camera is ready for remote shutter events.
    func syncRemoteShutterState(isEnabled: Bool) async throws
    /// Whether the device sends its shutter presses to the app (`remoteShutterPressed` events)
    /// instead of taking its own photo.
    var isRemoteShutterEnabled: Bool { get }
}

extension DeviceRemoteShutterAPI {
    /// Tells the device whether the app's camera is ready for remote shutter events.
    public func syncRemoteShutterState(isEnabled: Bool, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.syncRemoteShutterState(isEnabled: isEnabled) }
    }
}

/// Applications installed on the device.
public protocol DeviceAppsAPI: DeviceAPI {
    /// Starts the application with this identifier.
    func startApp(withIdentifier identifier: String) async throws
    /// Stops the application with this identifier.
    func stopApp(withIdentifier identifier: String) async throws
    /// The apps installed on the device and which run, as last reported.
    var installedApps: [DeviceAppModel] { get }
    /// Reads the installed apps and their states.
    func requestQueryApps() async throws -> [DeviceAppModel]
}

extension DeviceAppsAPI {
    /// Starts an application.
    public func startApp(withIdentifier identifier: String, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.startApp(withIdentifier: identifier) }
    }

    /// Stops an application.
    public func stopApp(withIdentifier identifier: String, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.stopApp(withIdentifier: identifier) }
    }
}

/// Service authorization of device features (AI, voice assistant).
public protocol DeviceServiceAuthAPI: DeviceAPI {
    /// Asks the device to retry its service authorization.
    func retryServiceAuth() async throws
    /// Reports the app-side authorization result to the device.
    func reportServiceAuthResult(_ success: Bool) async throws
    /// Where the device's authorization stands, as last reported.
    var serviceAuthState: ServiceAuthState { get }
    /// Reads the authorization state.
    func requestQueryServiceAuthState() async throws -> ServiceAuthState
}

extension DeviceServiceAuthAPI {
    /// Asks the device to retry its service authorization.
    public func retryServiceAuth(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.retryServiceAuth() }
    }

    /// Reports the app-side authorization result to the device.
    public func reportServiceAuthResult(_ success: Bool, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.reportServiceAuthResult(success) }
    }
}

/// Which function each physical operation (tap, press) triggers.
public protocol DevicePhysicalOperationsAPI: DeviceAPI {
    /// Which function each tap or press on the device triggers now, by operation.
    var physicalOperationMapping: [PhysicalOperation: PhysicalOperationFunction] { get }
    /// Makes the tap or press `operation` trigger `function` (play or pause, next track, a photo,
    /// ...) from now on.
    func assignFunction(_ function: PhysicalOperationFunction, to operation: PhysicalOperation) async throws
    /// Reads the mapping, updating ``physicalOperationMapping``.
    func requestQueryPhysicalOperationMapping() async throws -> [PhysicalOperation: PhysicalOperationFunction]
}

extension DevicePhysicalOperationsAPI {
    /// Makes the tap or press `operation` trigger `function`, then calls `completion` on the
    /// callback queue.
    public func assignFunction(
        _ function: PhysicalOperationFunction, to operation: PhysicalOperation, completion: AIBudsCompletionHandler?
    ) {
        AIBudsCall.run(completion) { try await self.assignFunction(function, to: operation) }
    }
}

/// Live streaming from the device camera (module AIBudsLiveStream pulls, shows, pushes and
/// records what it serves).
public protocol LiveStreamingAPI: DeviceAPI {
    /// Starts RTSP streaming (H.264 over RTP, the device's default size and rate) and returns the
    /// stream URL.
    func startRtspLiveStreaming() async throws -> URL
    /// Starts JPEG image streaming (multipart JPEG over HTTP) and returns the stream URL.
    func startJpegLiveStreaming() async throws -> URL
    /// Ends the stream that ``startRtspLiveStreaming()`` or ``startJpegLiveStreaming()`` began;
    /// every viewer is disconnected.
    func stopLiveStreaming() async throws
    /// Starts a stream of `kind` with the size, rate and bit rate of `options`; the status has its
    /// URL. The device refuses a value it does not offer (3001/3002) and a second stream (busy).
    func startLiveStreaming(_ kind: LiveStreamKind, options: LiveStreamOptions) async throws -> LiveStreamStatus
    /// Reads whether the camera streams, where, and the sizes, rates and bit rates it offers.
    func requestQueryLiveStreamStatus() async throws -> LiveStreamStatus
}

/// The result of a live-stream call: the stream's URL (or status) and `nil`, or `nil` and the
/// SDK's error; called on the SDK's callback queue.
public typealias AIBudsLiveStreamURLCompletionHandler = @Sendable (_ url: URL?, _ error: NSError?) -> Void
/// The status of the device's live stream, or the SDK's error; called on the callback queue.
public typealias AIBudsLiveStreamStatusCompletionHandler = @Sendable (_ status: LiveStreamStatus?, _ error: NSError?) -> Void

extension LiveStreamingAPI {
    /// Ends the live stream (RTSP or JPEG), then calls `completion` on the callback queue.
    public func stopLiveStreaming(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.stopLiveStreaming() }
    }

    /// Starts RTSP streaming, then calls `completion` with the stream's `rtsp://` URL, or the
    /// error (busy while another stream runs).
    public func startRtspLiveStreaming(_ completion: AIBudsLiveStreamURLCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.startRtspLiveStreaming() }
    }

    /// Starts JPEG image streaming, then calls `completion` with the stream's `http://` URL, or
    /// the error.
    public func startJpegLiveStreaming(_ completion: AIBudsLiveStreamURLCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.startJpegLiveStreaming() }
    }

    /// Starts a stream of `kind` with `options`, then calls `completion` with its status (URL,
    /// size, rate), or the error (a value the device does not offer: 3001/3002).
    public func startLiveStreaming(
        _ kind: LiveStreamKind, options: LiveStreamOptions, completion: AIBudsLiveStreamStatusCompletionHandler?
    ) {
        AIBudsCall.run(completion) { try await self.startLiveStreaming(kind, options: options) }
    }

    /// Reads the live stream's status, then calls `completion` with it, or the error.
    public func requestQueryLiveStreamStatus(_ completion: AIBudsLiveStreamStatusCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.requestQueryLiveStreamStatus() }
    }

}

/// Turns the assistant that listens and answers on the device itself on or off.
public protocol OnDeviceVoiceAssistantAPI: DeviceAPI {
    /// Whether the voice assistant is on.
    var isVoiceAssistantEnabled: Bool { get }
    /// Turns the voice assistant on or off.
    func setVoiceAssistantEnabled(_ enabled: Bool) async throws
}

extension OnDeviceVoiceAssistantAPI {
    /// Turns the voice assistant on or off.
    public func setVoiceAssistantEnabled(_ enabled: Bool, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setVoiceAssistantEnabled(enabled) }
    }
}

/// The teleprompter of AI glasses.
public protocol TeleprompterAPI: DeviceAPI {
    /// Shows `text` on the teleprompter.
    func sendTeleprompterText(_ text: String) async throws
    /// Ends the teleprompter, taking the text that ``sendTeleprompterText(_:)`` showed off the
    /// display.
    func closeTeleprompter() async throws
    /// What the teleprompter shows now, as last reported.
    var teleprompterState: TeleprompterStateModel? { get }
    /// Shows `page` (nil: the current one) scrolled to `position` percent (0–100).
    func scrollTeleprompter(toPage page: Int?, position: Int) async throws
}

extension TeleprompterAPI {
    /// Shows `text` on the teleprompter.
    public func sendTeleprompterText(_ text: String, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.sendTeleprompterText(text) }
    }

    /// Takes the teleprompter text off the display, then calls `completion` on the callback queue.
    public func closeTeleprompter(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.closeTeleprompter() }
    }

    /// Scrolls the teleprompter, then calls `completion` on the callback queue.
    public func scrollTeleprompter(toPage page: Int?, position: Int, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.scrollTeleprompter(toPage: page, position: position) }
    }
}

/// Turn-by-turn navigation on the device's display.
public protocol TurnByTurnNavigationAPI: DeviceAPI {
    /// Shows a navigation instruction.
    func sendNavigationInstruction(_ instruction: NavigationInstruction) async throws
    /// Ends navigation.
    func stopNavigation() async throws
    /// The instruction on the display now, nil when navigation is not running.
    var currentNavigationInstruction: NavigationInstruction? { get }
    /// Shows an alert (a speed camera, a jam, ...) until the next alert or the end of navigation.
    func sendNavigationAlert(_ alert: NavigationAlert) async throws
    /// The alert on the display now, nil when none is shown.
    var currentNavigationAlert: NavigationAlert? { get }
}

extension TurnByTurnNavigationAPI {
    /// Shows a navigation instruction.
    public func sendNavigationInstruction(_ instruction: NavigationInstruction, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.sendNavigationInstruction(instruction) }
    }

    /// Shows a navigation alert, then calls `completion` on the callback queue.
    public func sendNavigationAlert(_ alert: NavigationAlert, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.sendNavigationAlert(alert) }
    }

    /// Ends navigation, then calls `completion` on the callback queue.
    public func stopNavigation(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.stopNavigation() }
    }
}
