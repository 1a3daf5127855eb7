import AIBudsLog
import AIBudsSync
import Dispatch
import Foundation

/// The SDK's settings; every field takes effect (timeouts are read when an operation starts).
///
/// A class with settable properties as in the vendor's API; guarded by a lock, so it may be shared.
public final class SDKConfiguration: Sendable {
    private struct Fields {
        var logLevel: LogLevel = .info
        var includeTimestampInLogs = true
        var scanTimeoutInSeconds: Double = 10
        var connectTimeoutInSeconds: Double = 10
        var commandTimeoutInSeconds: Double = 5
        var pairingRequestConfirmTimeoutInSeconds: Double = 30
        var bluetoothDataPacketIntervalInMilliseconds = 0
        var shouldAutoReconnectWhenAppLaunch = true
        var onlyDiscoverKnownDevices = false
        var reconnectPolicy = ReconnectPolicy()
        var logService: (any LogService)?
        var callbackQueue = DispatchQueue(label: "aibuds.callbacks")
        var storedDevicesURL: URL?
    }

    private let fields = Locked(Fields())

    /// Creates a configuration with every setting at its default; change them before passing it to
    /// `AIBudsSDK.initialize`.
    public init() {}

    /// The default configuration (a new instance each time).
    public static func `default`() -> SDKConfiguration { SDKConfiguration() }

    private func get<T: Sendable>(_ path: KeyPath<Fields, T> & Sendable) -> T { fields.withLock { $0[keyPath: path] } }
    private func set<T: Sendable>(_ path: WritableKeyPath<Fields, T> & Sendable, _ value: T) { fields.withLock { $0[keyPath: path] = value } }

    /// The least severe level the SDK logs (default `.info`).
    public var logLevel: LogLevel {
        get { get(\.logLevel) }
        set { set(\.logLevel, newValue) }
    }
    /// Whether log lines start with a timestamp (default `true`).
    public var includeTimestampInLogs: Bool {
        get { get(\.includeTimestampInLogs) }
        set { set(\.includeTimestampInLogs, newValue) }
    }
    /// How long a scan runs when `startScanning` gets no timeout (default 10 s).
    public var scanTimeoutInSeconds: Double {
        get { get(\.scanTimeoutInSeconds) }
        set { set(\.scanTimeoutInSeconds, newValue) }
    }
    /// How long connecting and initializing a device may take (default 10 s).
    public var connectTimeoutInSeconds: Double {
        get { get(\.connectTimeoutInSeconds) }
        set { set(\.connectTimeoutInSeconds, newValue) }
    }
    /// How long one command may wait for the device's response, retries included (default 5 s).
    public var commandTimeoutInSeconds: Double {
        get { get(\.commandTimeoutInSeconds) }
        set { set(\.commandTimeoutInSeconds, newValue) }
    }
    /// How long the user has to confirm a pairing request (default 30 s); links without pairing ignore it.
    public var pairingRequestConfirmTimeoutInSeconds: Double {
        get { get(\.pairingRequestConfirmTimeoutInSeconds) }
        set { set(\.pairingRequestConfirmTimeoutInSeconds, newValue) }
    }
    /// The least time between two control packets sent to a device, in milliseconds (default 0: none).
    public var bluetoothDataPacketIntervalInMilliseconds: Int {
        get { get(\.bluetoothDataPacketIntervalInMilliseconds) }
        set { set(\.bluetoothDataPacketIntervalInMilliseconds, newValue) }
    }
    /// Whether stored devices marked for it are connected when they are loaded at launch (default `true`).
    public var shouldAutoReconnectWhenAppLaunch: Bool {
        get { get(\.shouldAutoReconnectWhenAppLaunch) }
        set { set(\.shouldAutoReconnectWhenAppLaunch, newValue) }
    }
    /// Whether scans report only devices already in `StoredDevicesMgr` (default `false`).
    public var onlyDiscoverKnownDevices: Bool {
        get { get(\.onlyDiscoverKnownDevices) }
        set { set(\.onlyDiscoverKnownDevices, newValue) }
    }
    /// How a device that drops its connection unexpectedly is reconnected (project addition).
    public var reconnectPolicy: ReconnectPolicy {
        get { get(\.reconnectPolicy) }
        set { set(\.reconnectPolicy, newValue) }
    }
    /// The log service the SDK writes to; `nil` (default) logs to the console at ``logLevel`` (project addition).
    public var logService: (any LogService)? {
        get { get(\.logService) }
        set { set(\.logService, newValue) }
    }
    /// The serial queue on which delegates, handlers and completions are called (project addition).
    public var callbackQueue: DispatchQueue {
        get { get(\.callbackQueue) }
        set { set(\.callbackQueue, newValue) }
    }
    /// Where `StoredDevicesMgr` keeps its list; `nil` (default) means `$XDG_DATA_HOME/aibuds/devices.json`
    /// (project addition).
    public var storedDevicesURL: URL? {
        get { get(\.storedDevicesURL) }
        set { set(\.storedDevicesURL, newValue) }
    }

    /// `scanTimeoutInSeconds` etc. as `Duration`s, clamped to sane values.
    var commandTimeout: Duration { .seconds(max(commandTimeoutInSeconds, 0.05)) }
    var connectTimeout: Duration { .seconds(max(connectTimeoutInSeconds, 0.05)) }
}

/// When and how often the SDK reconnects a device whose connection dropped unexpectedly.
public struct ReconnectPolicy: Sendable, Equatable {
    /// Whether to reconnect at all.
    public var isEnabled: Bool
    /// How many attempts before giving up.
    public var maximumAttempts: Int
    /// The delay before the first attempt; it doubles after each failure.
    public var initialDelay: Duration
    /// The longest delay between attempts.
    public var maximumDelay: Duration

    /// Creates a policy (defaults: enabled, 10 attempts, 0.25 s doubling up to 4 s).
    public init(
        isEnabled: Bool = true, maximumAttempts: Int = 10, initialDelay: Duration = .milliseconds(250),
        maximumDelay: Duration = .seconds(4)
    ) {
        self.isEnabled = isEnabled
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// Reconnection off: after an unexpected loss the device stays disconnected until the app
    /// connects it again.
    public static let never = ReconnectPolicy(isEnabled: false, maximumAttempts: 0)

    /// The delay before attempt `attempt` (1-based), or `nil` when the policy gives up.
    public func delay(beforeAttempt attempt: Int) -> Duration? {
        guard isEnabled, attempt >= 1, attempt <= maximumAttempts else { return nil }
        var delay = initialDelay
        for _ in 1..<attempt where delay < maximumDelay {
            delay *= 2
        }
        return min(delay, maximumDelay)
    }
}
