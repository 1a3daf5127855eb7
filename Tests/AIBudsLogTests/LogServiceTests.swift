import Foundation
import Synchronization
import Testing
@testable import AIBudsLog

@Suite struct LogServiceTests {
    @Test func fanOutFiltersByMinimumLevel() {
        let sink = RecordingLogService()
        let service = FanOutLogService(minimumLevel: .warning, destinations: [sink], redactor: LogRedactor())
        service.log(.debug, "t", "hidden")
        service.log(.warning, "t", "shown")
        service.minimumLevel = .trace
        service.log(.trace, "t", "now shown")
        #expect(sink.messages == ["shown", "now shown"])
        #expect(sink.records.map(\.level) == [.warning, .trace])
    }

    @Test func messagesBelowTheLevelAreNotBuilt() {
        let built = Atomic(0)
        func message() -> String {
            built.add(1, ordering: .relaxed)
            return "m"
        }
        NullLogService().log(.error, "t", message())
        FanOutLogService(minimumLevel: .error).log(.info, "t", message())
        #expect(built.load(ordering: .relaxed) == 0)
        #expect(!NullLogService().isLogging(.error))
    }

    @Test func formatterWritesOneLinePerRecord() {
        let record = LogRecord(
            date: Date(timeIntervalSince1970: 0), level: .warning, category: "smp", message: "a\nb")
        #expect(LogFormatter(includeTimestamp: false).format(record) == "[warning] smp: a\\nb")
        #expect(LogFormatter(includeTimestamp: true).format(record).hasPrefix("1970-01-01T00:00:00"))
    }

    @Test func levelNamesRoundTrip() {
        for level in LogLevel.allCases {
            #expect(LogLevel(name: level.name) == level)
        }
        #expect(LogLevel(name: "loud") == nil)
    }
}
