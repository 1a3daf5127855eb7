// The cost of one log line through the SDK's log service into each destination, against the plain
// rotating file as the reference, in the same run (scripts/bench-log.sh; docs/benchmarks.md).
//
// usage: aibuds-bench-log [LINES] [DIRECTORY]
import AIBudsJournal
import AIBudsLog
import AIBudsLogStore
import Foundation

let arguments = CommandLine.arguments
let lines = arguments.count > 1 ? Int(arguments[1]) ?? 200_000 : 200_000
let directory = URL(fileURLWithPath: arguments.count > 2 ? arguments[2] : NSTemporaryDirectory())
    .appendingPathComponent("aibuds-bench-log-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

func peakMemoryMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// Logs `count` lines like the SDK's own (a device, a number, no secret) and returns ns per line.
func measure(_ service: any LogService, count: Int, level: LogLevel = .info) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for index in 0..<count {
        service.log(level, "transfer", device: "glasses-1", "chunk \(index) of media/VID_0001.mp4 written at offset \(index &* 4096)")
    }
    let elapsed = clock.now - start
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    return nanoseconds / Double(count)
}

/// Like `measure`, with a message that names a token (the redactor's slow path).
func measureSecret(_ service: any LogService, count: Int) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for index in 0..<count {
        service.log(.info, "hotspot", device: "glasses-1", "joining with token=abc\(index) and Authorization: Bearer xyz")
    }
    let elapsed = clock.now - start
    return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(count)
}

struct Row {
    var name: String
    var nanoseconds: Double
    var note: String
}
var rows: [Row] = []
let redactor = LogRedactor()

rows.append(Row(name: "below the level (not built)", nanoseconds: measure(FanOutLogService(minimumLevel: .warning, redactor: redactor), count: lines, level: .debug), note: ""))
rows.append(Row(name: "redaction, a line with a secret", nanoseconds: measureSecret(FanOutLogService(minimumLevel: .trace, destinations: [RecordingLogServiceSink()], redactor: redactor), count: min(lines, 20_000)), note: ""))
rows.append(Row(name: "redaction only (no destination)", nanoseconds: measure(FanOutLogService(minimumLevel: .trace, destinations: [RecordingLogServiceSink()], redactor: redactor), count: lines), note: ""))

let file = RotatingFileLogDestination(fileURL: directory.appendingPathComponent("file/aibuds.log"), maximumFileSize: 64 * 1024 * 1024)
let fileCost = measure(FanOutLogService(minimumLevel: .trace, destinations: [file], redactor: redactor), count: lines)
rows.append(Row(name: "rotating file (reference)", nanoseconds: fileCost, note: ""))

let store = try SQLiteLogStore(path: directory.appendingPathComponent("store/aibuds.sqlite").path)
let storeClock = ContinuousClock()
let storeStart = storeClock.now
let storeCost = measure(FanOutLogService(minimumLevel: .trace, destinations: [store], redactor: redactor), count: lines)
store.flush()
let storeTotal = storeClock.now - storeStart
let storeTotalNs = (Double(storeTotal.components.seconds) * 1e9 + Double(storeTotal.components.attoseconds) / 1e9) / Double(lines)
let stored = try store.records(matching: LogQuery(limit: 1)).count
rows.append(Row(name: "SQLite store, caller's cost", nanoseconds: storeCost, note: "queued; committed in batches by its thread"))
rows.append(Row(name: "SQLite store, until committed", nanoseconds: storeTotalNs, note: stored == 1 ? "includes the final flush" : "NOTHING STORED"))
let queryClock = ContinuousClock()
let queryStart = queryClock.now
let found = try store.records(matching: LogQuery(device: "glasses-1", limit: 1000)).count
let queryMs = Double((queryClock.now - queryStart).components.attoseconds) / 1e15
store.close()

if let journal = try? JournaldLogDestination(identifier: "aibuds-bench") {
    let count = min(lines, 20_000)
    let cost = measure(FanOutLogService(minimumLevel: .trace, destinations: [journal], redactor: redactor), count: count)
    let note = journal.failedWriteCount == 0 ? "\(count) lines" : "\(journal.failedWriteCount) of \(count) refused (no journald?)"
    rows.append(Row(name: "journald (sd_journal_sendv)", nanoseconds: cost, note: note))
}

print("lines per destination: \(lines)")
func padded(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
print(padded("destination", 34) + padded("ns/line", 12) + padded("x file", 9) + "note")
for row in rows {
    print(padded(row.name, 34) + padded(String(format: "%.0f", row.nanoseconds), 12)
        + padded(String(format: "%.2f", row.nanoseconds / fileCost), 9) + row.note)
}
print(String(format: "query: newest 1000 of one device among %d rows: %.1f ms (%d found)", lines, queryMs, found))
print(String(format: "peak memory: %.1f MiB", peakMemoryMiB()))

/// A destination that keeps nothing: the cost of the service and its redaction alone.
final class RecordingLogServiceSink: LogDestination {
    func write(_ record: LogRecord) {}
}
