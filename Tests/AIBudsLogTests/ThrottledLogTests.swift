import AIBudsLog
import Foundation
import Testing

/// A flood of peer-caused lines costs a counter, not a line each.
struct ThrottledLogTests {
    @Test func oneLineAnIntervalAndTheRestCounted() async throws {
        let recorder = RecordingLogService(minimumLevel: .trace)
        let log = ThrottledLog(logger: recorder, interval: .milliseconds(300))
        for index in 0..<2000 { log.log(.info, "dashboard", "refused request \(index) " + String(repeating: "x", count: 16_000)) }
        #expect(recorder.records.count == 1)
        #expect(recorder.records[0].message.count == ThrottledLog.maximumMessageLength)
        try await Task.sleep(for: .milliseconds(400))
        log.log(.info, "dashboard", "refused again")
        #expect(recorder.records.count == 2)
        #expect(recorder.records[1].message == "refused again (and 1999 more like it left out)")
    }
}
