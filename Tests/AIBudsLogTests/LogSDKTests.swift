import AIBudsTestKit
import Foundation
import Testing
@testable import AIBudsLog

/// `AIBudsLogSDK`: the default service writes to exactly the outputs configured; the plugin
/// outputs need their plugin.
@Suite(.serialized) struct LogSDKTests {
    @Test func eachOutputGetsTheRecordsOnceFilteredAndRedacted() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let facility = RecordingLogService()
        let journal = RecordingLogService()
        AIBudsLogSDK.setXLFacilityPlugin(facility)
        AIBudsLogSDK.setOsLoggerPlugin(journal)
        let file = folder.appendingPathComponent("logs/sdk.log").path
        try AIBudsLogSDK.configure(outputs: [.xlfacility, .oslogger, .file(file)], minimumLevel: .info)
        LogRedactor.shared.register("sk-log-sdk-secret-1234")
        AIBudsLogSDK.logService.log(.debug, "test", "below the level")
        AIBudsLogSDK.logService.log(.info, "test", "token sk-log-sdk-secret-1234 used")
        #expect(facility.messages.count == 1 && journal.messages.count == 1)
        #expect(facility.messages[0].contains("token") && !facility.messages[0].contains("sk-log-sdk-secret-1234"))
        #expect(journal.messages == facility.messages)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains("[info] test: token") && !written.contains("sk-log-sdk-secret") && !written.contains("below"))

        // Reconfigured: only the store, nothing else.
        try AIBudsLogSDK.configure(outputs: [.xlfacility], minimumLevel: .debug)
        AIBudsLogSDK.logService.log(.debug, "test", "now kept")
        #expect(facility.messages.last == "now kept")
        #expect(journal.messages.count == 1)
    }

    @Test func aPluginOutputWithoutItsPluginIsRefusedAndChangesNothing() throws {
        let kept = RecordingLogService()
        AIBudsLogSDK.setXLFacilityPlugin(kept)
        try AIBudsLogSDK.configure(outputs: [.xlfacility], minimumLevel: .info)
        AIBudsLogSDK.resetPluginsForTesting()
        defer { AIBudsLogSDK.resetPluginsForTesting() }
        #expect(throws: LogSetupError.pluginNotRegistered(.oslogger)) {
            try AIBudsLogSDK.configure(outputs: [.console, .oslogger], minimumLevel: .trace)
        }
        #expect(throws: LogSetupError.pluginNotRegistered(.xlfacility)) { try AIBudsLogSDK.configure(outputs: [.xlfacility]) }
        #expect(LogSetupError.pluginNotRegistered(.oslogger).description.contains("setOsLoggerPlugin"))
        // The refused configurations changed nothing: the old output, at the old level.
        AIBudsLogSDK.logService.log(.debug, "test", "below the kept level")
        AIBudsLogSDK.logService.log(.warning, "test", "still here")
        #expect(kept.messages == ["still here"])
    }
}
