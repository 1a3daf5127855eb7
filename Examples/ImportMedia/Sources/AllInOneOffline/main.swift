// An app that initializes everything in one call and uses the AI side offline, written in the
// Swift 5 language mode as an app of the vendor's time would be: the production log plugin
// (XLFacility) registered through AIBudsLogSDK, AIBudsAllInOne.initialize, then AIBudsAISDK with no
// server. Usage: AllInOneOffline STATE_FOLDER (the log store and crash reports go there).
import AIBuds
import AIBudsAISDK
import AIBudsAllInOne
import AIBudsLog
import AIBudsXLFacility
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: AllInOneOffline STATE_FOLDER\n".utf8))
    exit(64)
}
let folder = CommandLine.arguments[1]

let facility = try XLFacility(path: folder + "/logs.sqlite")
AIBudsLogSDK.setXLFacilityPlugin(facility)

var options = AIBudsAllInOne.Options()
options.logOutputs = [.xlfacility]
options.crashReportDirectory = URL(fileURLWithPath: folder + "/crashes", isDirectory: true)
let initialized = AIBudsAllInOne.initialize(options: options)
print("initialized: \(initialized)")
print("AI providers: \(AIBudsAISDK.aiSDKs.map { $0.providerName }.joined(separator: ", "))")

let notes = """
    The glasses record a video of the harbour at sunrise. The wearer asks for the weather. \
    The assistant says it will rain in the afternoon. The wearer takes a photo of the boats.
    """
let summary = try await AIBudsAISDK.summary(notes)
print("summary: \(summary)")
let translation = try await AIBudsAISDK.translateText("good morning", from: "en", to: "es")
print("translation: \(translation)")

// The vendor's own AI services need their vendor's plugin: without it, a clear error.
AIBudsAISDK.setAIServiceVendor(.starBurst)
do {
    _ = try await AIBudsAISDK.summary(notes)
    print("starBurst: answered without a plugin")
} catch {
    print("starBurst: \(error.localizedDescription)")
}
AIBudsAISDK.setAIProvider(named: "offline")

facility.flush()
let records = try facility.query()
print("log records: \(records.count)")
print("sdk initialized logged: \(records.contains { $0.category == "sdk" && $0.message.contains("initialized") })")
