import AIBuds
import AIBudsAISDK
import AIBudsAllInOne
import AIBudsBlueZ
import AIBudsCrashReporter
import AIBudsImport
import AIBudsLog
import AIBudsLogStore
import AIBudsSMP
import AIBudsStabilization
import AIBudsSync
import AIBudsTestKit
import AIBudsXLFacility
import Foundation
import Testing

/// `AIBudsAllInOne.initialize` against the real parts it starts: the XLFacility store on disk, the
/// crash reporter's signal handlers and folder, the device SDK with its plugins, the stabilization
/// plugin and the AI providers. The process-wide state it changes (the log's outputs, the crash
/// handler, the AI side) is put back after each test; the suite runs in a process of its own
/// (scripts/test.sh's `heavy` list) so that no other suite logs into its store meanwhile.
@Suite("AIBudsAllInOne: one call starts what its options say", .serialized, .sdkState(.exclusive))
final class AllInOneTests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryDirectory("allinone")
        Self.resetProcessState()
    }

    deinit {
        Self.resetProcessState()
        try? FileManager.default.removeItem(at: folder)
    }

    /// What `initialize` starts beyond the device SDK (which the suite's trait resets): no crash
    /// handler, no AI providers, no log plugins or outputs.
    static func resetProcessState() {
        CrashReporter.shared.uninstall()
        AIBudsAISDK.reset()
        AIBudsLogSDK.resetPluginsForTesting()
        try? AIBudsLogSDK.configure(outputs: [])
        VideoStabilizationRegistry.shared.plugin = nil
    }

    /// A configuration whose stored devices live in the test's folder and that leaves the log
    /// service to `initialize`.
    func configuration() -> SDKConfiguration {
        let configuration = SDKConfiguration.default()
        configuration.storedDevicesURL = folder.appendingPathComponent("devices.json")
        return configuration
    }

    /// Options writing into the test's folder, with the AI side off unless a test turns it on.
    func options() -> AIBudsAllInOne.Options {
        var options = AIBudsAllInOne.Options()
        options.logOutputs = [.xlfacility]
        options.xlFacilityPath = folder.appendingPathComponent("logs.sqlite").path
        options.crashReportDirectory = folder.appendingPathComponent("crashes", isDirectory: true)
        options.startsAI = false
        options.environment = [:]
        return options
    }

    @Test("the log store, the crash reporter, the device SDK with both plugins and gyro stabilization start")
    func startsEverythingItsOptionsName() throws {
        let options = options()
        // A report left by an earlier crash is handed to the app at initialization.
        let crashes = try #require(options.crashReportDirectory)
        try FileManager.default.createDirectory(at: crashes, withIntermediateDirectories: true)
        let earlier = crashes.appendingPathComponent("crash-1700000000-42.txt")
        try writeTestFile(Array("sdk: AIBuds\nsignal: SIGSEGV\n".utf8), to: earlier)
        var handled = options
        let seen = Locked<[String]>([])
        handled.crashReportHandler = { url in seen.withLock { $0.append(url.lastPathComponent) } }

        #expect(AIBudsAllInOne.initialize(configuration: configuration(), options: handled))

        #expect(AIBudsSDK.isInitialized)
        #expect(AIBudsSDK.plugins.count == 2)
        #expect(AIBudsSDK.plugins.first is SMPConnectSDK)
        #expect(AIBudsSDK.plugins.last is BlueZConnectSDK)
        #expect(AIBudsSDK.sdkConfiguration.logService is FanOutLogService)
        #expect(VideoStabilizationRegistry.shared.plugin is GyroStabilizationPlugin)
        #expect(CrashReporter.shared.directory?.standardizedFileURL == crashes.standardizedFileURL)
        #expect(seen.withLock { $0 } == [earlier.lastPathComponent])
        #expect(AIBudsAISDK.aiSDKs.isEmpty)

        // The SDK's log reaches the XLFacility store at the path asked for.
        let store = try #require(AIBudsLogSDK.xlFacilityPlugin as? XLFacility)
        AIBudsSDK.logger.log(.warning, "allinone-test", "a line for the store")
        store.flush()
        let records = try store.query(LogQuery(module: "allinone-test"))
        #expect(records.map(\.message) == ["a line for the store"])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("logs.sqlite").path))
    }

    @Test("a second initialize is refused, with the reason logged, and keeps the first one's plugins")
    func refusesASecondInitialize() throws {
        #expect(AIBudsAllInOne.initialize(configuration: configuration(), options: options()))
        let plugins = AIBudsSDK.plugins.map { ObjectIdentifier($0) }
        #expect(!AIBudsAllInOne.initialize(configuration: configuration(), options: options()))
        #expect(AIBudsSDK.plugins.map { ObjectIdentifier($0) } == plugins)
        #expect(AIBudsSDK.isInitialized)
        let store = try #require(AIBudsLogSDK.xlFacilityPlugin as? XLFacility)
        store.flush()
        let refusals = try store.query(LogQuery(minimumLevel: .warning)).filter { $0.message.contains("already initialized") }
        #expect(refusals.count == 1)
    }

    @Test("a part that cannot start is logged and left out; the rest starts")
    func aPartThatCannotStartIsLeftOut() throws {
        // The crash folder's parent is a regular file: the folder cannot be made.
        let blocker = folder.appendingPathComponent("not-a-folder")
        try writeTestFile(Array("x".utf8), to: blocker)
        var options = options()
        options.crashReportDirectory = blocker.appendingPathComponent("crashes", isDirectory: true)

        #expect(AIBudsAllInOne.initialize(configuration: configuration(), options: options))

        #expect(AIBudsSDK.isInitialized)
        #expect(CrashReporter.shared.directory == nil)
        let store = try #require(AIBudsLogSDK.xlFacilityPlugin as? XLFacility)
        store.flush()
        let warnings = try store.query(LogQuery(minimumLevel: .warning, module: "allinone"))
        #expect(warnings.contains { $0.message.contains("crash reporter was not installed") })
    }

    @Test("the AI side: the offline provider, or the OpenAI-compatible one when its server is configured")
    func startsTheAISide() throws {
        var options = options()
        options.startsAI = true
        #expect(AIBudsAllInOne.initialize(configuration: configuration(), options: options))
        #expect(AIBudsAISDK.aiSDKs.map(\.providerName) == ["offline"])
        #expect(try AIBudsAISDK.selectedProvider().providerName == "offline")

        AIBudsSDK.resetForTesting()
        AIBudsAISDK.reset()
        options.environment = ["AIBUDS_AI_BASE_URL": "http://127.0.0.1:9/v1"]
        #expect(AIBudsAllInOne.initialize(configuration: configuration(), options: options))
        #expect(AIBudsAISDK.aiSDKs.map(\.providerName) == ["offline", "openai"])
        #expect(try AIBudsAISDK.selectedProvider().providerName == "openai")
    }

    @Test("the default plugins: SMP over UDP and over BLE; the default stabilization plugin: the gyro EIS")
    func defaultPlugins() {
        let plugins = AIBudsAllInOne.defaultPlugins()
        #expect(plugins.count == 2 && plugins.first is SMPConnectSDK && plugins.last is BlueZConnectSDK)
        #expect(AIBudsAllInOne.defaultVideoStabilizationPlugin() is GyroStabilizationPlugin)
        #expect(VideoStabilizationRegistry(plugin: AIBudsAllInOne.defaultVideoStabilizationPlugin()).isAvailable)
    }

    @Test("devicesOnly: the device SDK alone, no crash handler, no store, no AI providers")
    func devicesOnlyStartsTheDevicesAlone() {
        let options = AIBudsAllInOne.Options.devicesOnly
        #expect(options.logOutputs == [.console])
        #expect(options.crashReportDirectory == nil)
        #expect(!options.startsAI)
        #expect(AIBudsAllInOne.initialize(configuration: configuration(), options: options))
        #expect(AIBudsSDK.isInitialized)
        #expect(CrashReporter.shared.directory == nil)
        #expect(AIBudsLogSDK.xlFacilityPlugin == nil)
        #expect(AIBudsAISDK.aiSDKs.isEmpty)
    }

    @Test("the default crash folder and log store follow XDG_STATE_HOME")
    func defaultsFollowXDGStateHome() throws {
        let state = folder.appendingPathComponent("state", isDirectory: true)
        let previous = ProcessInfo.processInfo.environment["XDG_STATE_HOME"]
        setenv("XDG_STATE_HOME", state.path, 1)
        defer {
            if let previous { setenv("XDG_STATE_HOME", previous, 1) } else { unsetenv("XDG_STATE_HOME") }
        }
        var options = AIBudsAllInOne.Options()
        #expect(options.crashReportDirectory?.path == state.appendingPathComponent("aibuds/crashes").path)
        options.logOutputs = [.xlfacility]
        options.startsAI = false
        #expect(AIBudsAllInOne.initialize(configuration: configuration(), options: options))
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("aibuds/crashes").path))
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("aibuds/logs.sqlite").path))
    }
}
