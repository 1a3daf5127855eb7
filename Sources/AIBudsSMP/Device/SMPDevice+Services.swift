import AIBuds
import AIBudsFoundation
import AIBudsWire
import Foundation

/// The glasses' services over the Device group's settings and actions (docs/protocol.md §3,
/// "Controls"): remote shutter, apps, service authorization, voice assistant, teleprompter and
/// turn-by-turn navigation.
extension SMPDevice {
    // MARK: DeviceRemoteShutterAPI

    /// Whether shutter presses go to the app, as last reported.
    public var isRemoteShutterEnabled: Bool { currentStatus.remoteShutterEnabled ?? false }

    /// Tells the device whether the app takes its shutter presses.
    public func syncRemoteShutterState(isEnabled: Bool) async throws {
        try await writeSetting(DeviceSettingName.shutter, .remoteShutter, EnabledSetting(enabled: isEnabled))
    }

    // MARK: DeviceAppsAPI

    /// The installed apps, as last reported.
    public var installedApps: [DeviceAppModel] { currentStatus.apps }

    /// Starts an app; the device answers rc 2 for an unknown one and rc 7 for one already running.
    public func startApp(withIdentifier identifier: String) async throws {
        try await act(DeviceActionName.appStart, .apps, AppActionArgs(id: identifier))
    }

    /// Stops an app; the device answers rc 7 for one not running.
    public func stopApp(withIdentifier identifier: String) async throws {
        try await act(DeviceActionName.appStop, .apps, AppActionArgs(id: identifier))
    }

    /// Reads the installed apps.
    public func requestQueryApps() async throws -> [DeviceAppModel] {
        try await readSetting(DeviceSettingName.apps, .apps)
        return installedApps
    }

    // MARK: DeviceServiceAuthAPI

    /// The authorization state, as last reported.
    public var serviceAuthState: ServiceAuthState { currentStatus.serviceAuthState }

    /// Starts an authorization on the device (state `authorizing`, then an event with the outcome).
    public func retryServiceAuth() async throws {
        try await act(DeviceActionName.authRetry, .serviceAuth)
    }

    /// Reports the app's own authorization result.
    public func reportServiceAuthResult(_ success: Bool) async throws {
        try await act(DeviceActionName.authReport, .serviceAuth, AuthReportArgs(success: success))
    }

    /// Reads the authorization state.
    public func requestQueryServiceAuthState() async throws -> ServiceAuthState {
        try await readSetting(DeviceSettingName.serviceAuth, .serviceAuth)
        return serviceAuthState
    }

    // MARK: OnDeviceVoiceAssistantAPI

    /// Whether the assistant listens, as last reported; wake words arrive as `wakeWord` events.
    public var isVoiceAssistantEnabled: Bool { currentStatus.voiceAssistantEnabled ?? false }

    /// Turns the assistant on or off.
    public func setVoiceAssistantEnabled(_ enabled: Bool) async throws {
        try await writeSetting(DeviceSettingName.voiceAssistant, .voiceAssistant, EnabledSetting(enabled: enabled))
    }

    // MARK: TeleprompterAPI

    /// What the teleprompter shows, as last reported.
    public var teleprompterState: TeleprompterStateModel? { currentStatus.teleprompter }

    /// Shows `text`, which the device splits into pages, from the first page.
    public func sendTeleprompterText(_ text: String) async throws {
        try await act(DeviceActionName.teleprompterText, .teleprompter, TeleprompterTextArgs(text: text))
    }

    /// Scrolls the teleprompter; the device refuses a page or position outside the text (code 6).
    public func scrollTeleprompter(toPage page: Int?, position: Int) async throws {
        let args = TeleprompterScrollArgs(
            page: try page.map { try Self.nonNegative($0, "a page") }, position: try Self.nonNegative(position, "a position"))
        try await act(DeviceActionName.teleprompterScroll, .teleprompter, args)
    }

    /// Closes the teleprompter; the device answers rc 7 when it is closed already.
    public func closeTeleprompter() async throws {
        try await act(DeviceActionName.teleprompterClose, .teleprompter)
    }

    // MARK: TurnByTurnNavigationAPI

    /// The instruction on the display, as last reported.
    public var currentNavigationInstruction: NavigationInstruction? { currentStatus.navigation }

    /// Shows an instruction (maneuver, distance, street).
    public func sendNavigationInstruction(_ instruction: NavigationInstruction) async throws {
        let args = NavigationSetting(
            maneuver: try Self.wireName(instruction.maneuver, "a maneuver"), distance: try Self.nonNegative(instruction.distanceInMeters, "a distance"),
            street: instruction.text)
        try await act(DeviceActionName.navigationShow, .navigation, args)
    }

    /// Ends navigation, its instruction and its alert; the device answers rc 7 when none runs.
    public func stopNavigation() async throws {
        try await act(DeviceActionName.navigationStop, .navigation)
        // The stop's answer is the instruction; the alert it cleared is a setting of its own, whose
        // event may come after this returns: read it, so the alert is gone when the call returns.
        _ = try await readSetting(DeviceSettingName.navigationAlert, .navigation)
    }

    /// The alert on the display, as last reported.
    public var currentNavigationAlert: NavigationAlert? { currentStatus.navigationAlert }

    /// Shows an alert (what it warns of, how far ahead); it stays until the next alert or the end
    /// of navigation.
    public func sendNavigationAlert(_ alert: NavigationAlert) async throws {
        let args = NavigationAlertSetting(
            kind: try Self.wireName(alert.kind, "an alert"), distance: try alert.distanceInMeters.map { try Self.nonNegative($0, "a distance") })
        try await act(DeviceActionName.navigationAlert, .navigation, args)
    }

    /// The wire name of `value`; `.unknown` (a name only a newer device knows) cannot be sent.
    private static func wireName<Name: WireNamed & Equatable>(_ value: Name, _ what: String) throws -> String {
        guard value != .unknown else {
            throw AIBudsError(.operationFailedDueToWrongParameters, "\(what) of kind unknown cannot be sent")
        }
        return value.rawValue
    }
}
