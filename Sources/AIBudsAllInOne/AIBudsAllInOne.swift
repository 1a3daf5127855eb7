import AIBuds
import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsCrashReporter
import AIBudsFiles
import AIBudsImport
import AIBudsBlueZ
import AIBudsJournal
import AIBudsLog
import AIBudsOfflineAI
import AIBudsOpenAI
import AIBudsSMP
import AIBudsXLFacility
import Foundation
// The SMP glasses' and earbuds' AI audio path (`DeviceAIAudioAPI`): linked with this module, so
// `device as? DeviceAIAudioAPI` finds it in every app that uses the default plugins.
import AIBudsSMPAudio
import AIBudsStabilization

/// One call that initializes everything with sane defaults: the log, the crash reporter, the
/// device SDK with its default plugins (and the SMP devices' AI audio path, module
/// AIBudsSMPAudio), video stabilization and the AI side.
public enum AIBudsAllInOne {
    /// The default link plugins: SMP over UDP (``/AIBudsSMP/SMPConnectSDK``) and SMP over Bluetooth LE through
    /// BlueZ on the system bus, or `DBUS_SYSTEM_BUS_ADDRESS` (``/AIBudsBlueZ/BlueZConnectSDK``).
    public static func defaultPlugins() -> [any BleConnectSDK] {
        [SMPConnectSDK(), BlueZConnectSDK()]
    }

    /// The default video stabilization plugin: gyro EIS with the AIBuds glasses' lens profile.
    public static func defaultVideoStabilizationPlugin() -> any VideoStabilizationPlugin {
        GyroStabilizationPlugin()
    }

    /// What ``initialize(configuration:delegate:options:)`` sets up besides the device SDK; every
    /// default can be overridden.
    public struct Options: Sendable {
        /// Where the SDK's log goes (`AIBudsLogSDK`): by default the console and the production
        /// store (XLFacility at its default path). `.oslogger` writes to the systemd journal.
        public var logOutputs: [LogOutput] = [.console, .xlfacility]
        /// The XLFacility store's file; nil: `$XDG_STATE_HOME/aibuds/logs.sqlite`.
        public var xlFacilityPath: String?
        /// Where crash reports are written; nil: no crash reporter. By default
        /// `$XDG_STATE_HOME/aibuds/crashes` (`~/.local/state/aibuds/crashes`).
        public var crashReportDirectory: URL? = XDGFolder.state().appendingPathComponent("crashes", isDirectory: true)
        /// Called with each report left by an earlier crash, at initialization.
        public var crashReportHandler: (@Sendable (URL) -> Void)?
        /// Whether the AI side starts too: the offline provider, selected, and the
        /// OpenAI-compatible provider when its server is configured (`AIBUDS_AI_BASE_URL` or
        /// `AIBUDS_AI_CHAT_URL`; selected then instead).
        public var startsAI = true
        /// The environment the AI provider and the paths are read from.
        public var environment: [String: String] = ProcessInfo.processInfo.environment

        /// The defaults: console and XLFacility logs, crash reports, the AI side.
        public init() {}

        /// The device SDK alone, logging to the console: what a tool that only talks to devices
        /// needs (no store, no crash handler, no AI providers).
        public static var devicesOnly: Options {
            var options = Options()
            options.logOutputs = [.console]
            options.crashReportDirectory = nil
            options.startsAI = false
            return options
        }

    }

    /// Initializes everything in one call, as the vendor's AllInOne does: the log (outputs of
    /// `options`, the SDK's log service unless `configuration` names one), the crash reporter, the
    /// device SDK with the default plugins and, unless the app registered one already, the default
    /// video stabilization plugin (replace it with `AIBudsSDK.setVideoStabilizationPlugin(_:)`,
    /// or switch stabilization off with `AIBudsSDK.isVideoStabilizationDisabled`), and the AI side
    /// (`AIBudsAISDK` with the offline provider, and the OpenAI-compatible one when configured).
    ///
    /// Returns `false` (with the reason logged) when the device SDK is already initialized; a
    /// part that cannot start (a log store that cannot open, a crash directory that cannot be
    /// made) is logged and left out, the rest starts.
    @discardableResult
    public static func initialize(
        configuration: SDKConfiguration? = nil, delegate: (any SDKDelegate)? = nil, options: Options = Options()
    ) -> Bool {
        let configuration = configuration ?? SDKConfiguration.default()
        var problems: [String] = []
        if configuration.logService == nil {
            problems += setUpLog(options, level: configuration.logLevel)
            configuration.logService = AIBudsLogSDK.logService
        }
        if let directory = options.crashReportDirectory {
            let handler = options.crashReportHandler ?? { _ in }
            do { try CrashReporter.shared.install(directory: directory, handler: handler) } catch {
                problems.append("the crash reporter was not installed in \(directory.path): \(error)")
            }
        }
        let initialized = AIBudsSDK.initialize(defaultPlugins(), configuration: configuration, delegate: delegate)
        if initialized && VideoStabilizationRegistry.shared.plugin == nil {
            AIBudsSDK.setVideoStabilizationPlugin(defaultVideoStabilizationPlugin())
        }
        if options.startsAI { problems += startAI(options.environment) }
        let logger = configuration.logService ?? AIBudsLogSDK.logService
        for problem in problems { logger.log(.warning, "allinone", problem) }
        return initialized
    }

    /// Registers the log plugins and configures `AIBudsLogSDK`'s outputs; returns what failed.
    private static func setUpLog(_ options: Options, level: LogLevel) -> [String] {
        var problems: [String] = []
        var outputs = options.logOutputs
        if outputs.contains(.xlfacility), AIBudsLogSDK.xlFacilityPlugin == nil {
            do {
                let facility = try options.xlFacilityPath.map { try XLFacility(path: $0) } ?? XLFacility()
                AIBudsLogSDK.setXLFacilityPlugin(facility)
            } catch {
                problems.append("the XLFacility log store did not open: \(error)")
                outputs.removeAll { $0 == .xlfacility }
            }
        }
        if outputs.contains(.oslogger) {
            do { AIBudsLogSDK.setOsLoggerPlugin(try JournaldLogDestination()) } catch {
                problems.append("the systemd journal is not available: \(error)")
                outputs.removeAll { $0 == .oslogger }
            }
        }
        do { try AIBudsLogSDK.configure(outputs: outputs, minimumLevel: level) } catch {
            problems.append("\(error)")
        }
        return problems
    }

    /// Loads the offline provider (and the OpenAI-compatible one when its server is configured)
    /// and selects one, unless the app loaded providers already; returns what failed.
    private static func startAI(_ environment: [String: String]) -> [String] {
        guard AIBudsAISDK.aiSDKs.isEmpty else { return [] }
        var providers: [any AIConnectSDK] = [OfflineAIProvider()]
        let remote = OpenAICompatibleConfiguration.fromEnvironment(environment)
        let configured = remote.chatBaseURL != nil
        if configured { providers.append(OpenAICompatibleProvider(configuration: remote)) }
        do {
            try AIBudsAISDK.initialize(aiSDKs: providers)
        } catch {
            return ["the AI side did not start: \(error)"]
        }
        AIBudsAISDK.setAIProvider(named: configured ? "openai" : "offline")
        return []
    }
}
