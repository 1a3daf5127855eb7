import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import Foundation

/// The SDK's device-side entry point: initialization, plugins, scanning. Static members only.
///
/// Device operations (connect, commands) are not here: they are called on the device itself.
public final class AIBudsSDK: Sendable {
    struct State {
        var isInitialized = false
        var plugins: [any BleConnectSDK] = []
        weak var delegate: (any SDKDelegate)?
        var configuration = SDKConfiguration()
        var logger: any LogService = NullLogService()
        var scan: ScanSession?
        var starBurstPlugin: (any StarBurstBridgePlugin)?
        var mltCloudPlugin: (any MltCloudBridgePlugin)?
        var voiceAssistantPlugin: (any OnDeviceVoiceAssistantBridgePlugin)?
    }

    static let state = Locked(State())

    private init() {}

    // MARK: Versions

    /// The SDK's version.
    public static let sdkVersion = AIBudsVersion.semantic
    /// The SDK's build number.
    public static let sdkBuild = AIBudsVersion.build
    /// The SDK's release date.
    public static let sdkReleaseDate = AIBudsVersion.releaseDate
    /// `AIBudsSDK version (build), date`.
    public static var sdkVersionDescription: String { "AIBudsSDK \(sdkVersion) (\(sdkBuild)), \(sdkReleaseDate)" }

    // MARK: State

    /// The configuration given to `initialize` (the default one before).
    public static var sdkConfiguration: SDKConfiguration { state.withLock { $0.configuration } }
    /// The log service the SDK writes to.
    public static var logger: any LogService { state.withLock { $0.logger } }
    /// The SDK-wide delegate, held weakly.
    public static var delegate: (any SDKDelegate)? { state.withLock { $0.delegate } }
    /// The registered link plugins.
    public static var plugins: [any BleConnectSDK] { state.withLock { $0.plugins } }
    /// Whether `initialize` succeeded.
    public static var isInitialized: Bool { state.withLock { $0.isInitialized } }

    /// The registered plugin for a link protocol.
    public static func plugin(for kind: BleProtocolKind) -> (any BleConnectSDK)? {
        plugins.first { $0.protocolKind == kind }
    }

    // MARK: Initialization

    /// Initializes the SDK with link plugins and the default configuration.
    ///
    /// Returns `false`, with the reason logged, when the SDK is already initialized or no plugin is given.
    @discardableResult
    public static func initialize(_ bleSDKs: [any BleConnectSDK], delegate: (any SDKDelegate)? = nil) -> Bool {
        initialize(bleSDKs, configuration: nil, delegate: delegate)
    }

    /// Initializes the SDK with link plugins, a configuration and an SDK-wide delegate.
    ///
    /// Returns `false`, with the reason logged, when the SDK is already initialized or no plugin is given.
    @discardableResult
    public static func initialize(
        _ bleSDKs: [any BleConnectSDK], configuration: SDKConfiguration? = nil, delegate: (any SDKDelegate)? = nil
    ) -> Bool {
        let configuration = configuration ?? .default()
        let newLogger = makeLogger(configuration)
        let failure: (String, any LogService)? = state.withLock { state in
            if state.isInitialized {
                return ("AIBudsSDK.initialize was called again; the SDK is already initialized", state.logger)
            }
            if bleSDKs.isEmpty {
                return ("AIBudsSDK.initialize needs at least one link plugin (BleConnectSDK)", newLogger)
            }
            state.isInitialized = true
            state.plugins = bleSDKs
            state.delegate = delegate
            state.configuration = configuration
            state.logger = newLogger
            return nil
        }
        if let (reason, logger) = failure {
            logger.log(.error, "sdk", reason)
            return false
        }
        for plugin in bleSDKs { plugin.setSDKDelegate(delegate) }
        let kinds = bleSDKs.map { "\($0.sdkName) (\($0.protocolKind))" }.joined(separator: ", ")
        newLogger.log(.info, "sdk", "\(sdkVersionDescription) initialized with \(kinds)")
        return true
    }

    /// Initializes the SDK with link plugins, a configuration and an SDK-wide delegate (the vendor's
    /// architecture overview spells ``initialize(_:configuration:delegate:)`` this way,
    /// `initialize(bleSDKs:configuration:delegate:)`).
    @discardableResult
    public static func initialize(
        bleSDKs: [any BleConnectSDK], configuration: SDKConfiguration? = nil, delegate: (any SDKDelegate)? = nil
    ) -> Bool {
        initialize(bleSDKs, configuration: configuration, delegate: delegate)
    }

    private static func makeLogger(_ configuration: SDKConfiguration) -> any LogService {
        if let service = configuration.logService { return service }
        let formatter = LogFormatter(includeTimestamp: configuration.includeTimestampInLogs)
        return FanOutLogService(
            minimumLevel: configuration.logLevel, destinations: [ConsoleLogDestination(formatter: formatter)])
    }

    /// Returns the SDK to its uninitialized state (tests only: `AIBudsTestKit`'s `SDKStateLock`
    /// calls it around every test that changes the SDK's state).
    package static func resetForTesting() {
        stopScanning()
        state.withLock { $0 = State() }
        StoredDevicesMgr.resetForTesting()
    }

    // MARK: Devices

    /// Turns a found device into a storable one, using the device class of its plugin and product.
    ///
    /// When the device is already in ``StoredDevicesMgr``, the stored instance is returned, so that an app
    /// never holds two handles for one device. `nil` when no registered plugin handles the device.
    public static func makeStorableDeviceFromDiscovered(_ device: any FoundDeviceConvertible) -> (any DeviceConvertible)? {
        if let stored = StoredDevicesMgr.findDevice(byPeripheral: device.peripheral) { return stored }
        guard let plugin = plugin(for: device.protocolKind) else {
            logger.log(.warning, "sdk", "no plugin for \(device.protocolKind); cannot store \(device.peripheral)")
            return nil
        }
        return plugin.classForDeviceModel(product: device.product).init(device: device)
    }

    /// Finds the device at an explicit address (for example `udp://192.0.2.7:1337`) through the plugins.
    /// Throws an `AIBudsError`: the error of the plugin that reaches the address's kind, a
    /// plugin's own error type as `peripheralUnavailable` with it as the cause.
    public static func discoverDevice(at address: String) async throws -> any FoundDeviceConvertible {
        let parsed = try DeviceAddress(parsing: address)
        let plugins = self.plugins
        guard !plugins.isEmpty else { throw AIBudsError(.sdkNotInitialized) }
        let timeout = sdkConfiguration.connectTimeout
        // The error of a plugin that reaches the address's kind (udp://, ble://) is the one to report;
        // another plugin's "I reach ble:// addresses only" says nothing about why the address failed.
        var reachedError: (any Error)?
        var unavailable: any Error = AIBudsError(.pluginUnavailable, "no plugin reaches \(address)")
        for plugin in plugins {
            do {
                let found = try await plugin.discoverPeripheral(at: parsed, timeout: timeout)
                let ad = found.advertisement.dictionary
                if let device = plugin.create(found.central, found.peripheral, advertisementData: ad, rssi: found.rssi.map { NSNumber(value: $0) }) {
                    return device
                }
            } catch {
                if AIBudsError.from(error).code == .pluginUnavailable {
                    unavailable = error
                } else if reachedError == nil {
                    reachedError = error
                }
            }
        }
        // A plugin's own error type becomes the SDK's: the address could not be reached.
        let failure = reachedError ?? unavailable
        let mapped = AIBudsError.from(failure)
        throw mapped.code == .unknown
            ? AIBudsError(.peripheralUnavailable, "cannot reach \(address): \(failure)", underlying: failure) : mapped
    }

    // MARK: AI and voice plugins

    /// Registers the StarBurst AI authorization bridge.
    public static func setStarBurstAIPlugin(_ plugin: (any StarBurstBridgePlugin)?) {
        state.withLock { $0.starBurstPlugin = plugin }
    }

    /// Registers the MltCloud AI authorization bridge.
    public static func setMltCloudAIPlugin(_ plugin: (any MltCloudBridgePlugin)?) {
        state.withLock { $0.mltCloudPlugin = plugin }
    }

    /// Registers the on-device voice assistant bridge.
    public static func setOnDeviceVoiceAssistantPlugin(_ plugin: (any OnDeviceVoiceAssistantBridgePlugin)?) {
        state.withLock { $0.voiceAssistantPlugin = plugin }
    }

    /// The voice assistant bridge registered with ``setOnDeviceVoiceAssistantPlugin(_:)``, which
    /// module AIBudsVoiceAssistant asks when a device's service is not authorized yet; nil when none.
    public static var onDeviceVoiceAssistantPlugin: (any OnDeviceVoiceAssistantBridgePlugin)? {
        state.withLock { $0.voiceAssistantPlugin }
    }
}
