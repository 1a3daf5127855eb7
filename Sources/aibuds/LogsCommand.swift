import AIBudsLog
import AIBudsLogStore
import Foundation

/// `aibuds logs`: reads, exports and purges the SQLite log store.
struct LogsCommand: CLICommand {
    static let path = ["logs"]
    static let abstract = "Query, export or purge the SDK's log store."
    static let help = """
        usage: aibuds logs [--since T] [--until T] [--level L] [--module M] [--device D] [--limit N]
                           [--export FILE] [--purge] [--store PATH] [--json]

        Prints the records of the SQLite log store that apps write with SQLiteLogStore
        ($XDG_STATE_HOME/aibuds/logs.sqlite unless --store says otherwise), oldest first.
        Secrets were redacted before they were stored.

        options:
          --since T      records at or after T: ISO 8601 (2026-01-02T03:04:05Z) or a duration
                         back from now (90s, 15m, 2h, 7d)
          --until T      records before T (same forms)
          --level L      this level or more severe: trace, debug, info, warning, error
          --module M     records of this module (smp, import, dashboard, ...)
          --device D     records about this device
          --limit N      only the newest N matching records
          --export FILE  write the matching records to FILE as JSON lines instead of printing
          --purge        delete the records older than the store's retention (7 days) first
          --store PATH   the store's file
          --json         print JSON lines instead of text lines
        """

    var query = LogQuery()
    var export: String?
    var purge: Bool
    var store: String
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        let now = Date()
        if let since = try arguments.option("--since") { query.since = try Self.time(since, now: now, option: "--since") }
        if let until = try arguments.option("--until") { query.until = try Self.time(until, now: now, option: "--until") }
        if let level = try arguments.option("--level") {
            guard let parsed = LogLevel(name: level) else {
                throw CommandFailure.usage("--level takes trace, debug, info, warning or error, not '\(level)'")
            }
            query.minimumLevel = parsed
        }
        query.module = try arguments.option("--module")
        query.device = try arguments.option("--device")
        if let limit: Int = try arguments.number("--limit") {
            guard limit > 0 else { throw CommandFailure.usage("--limit takes a positive number") }
            query.limit = limit
        }
        export = try arguments.option("--export")
        purge = arguments.flag("--purge")
        // A relative --store names a file in the current folder.
        store = URL(fileURLWithPath: try arguments.option("--store") ?? SQLiteLogStore.defaultPath()).standardizedFileURL.path
        json = arguments.flag("--json")
        try arguments.finish()
    }

    /// An ISO 8601 time, or a duration back from `now` (`90s`, `15m`, `2h`, `7d`).
    static func time(_ text: String, now: Date, option: String) throws -> Date {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let unit = text.last, let scale = units[unit], let amount = Double(text.dropLast()), amount >= 0 {
            return now.addingTimeInterval(-amount * scale)
        }
        throw CommandFailure.usage("\(option) takes an ISO 8601 time or a duration like 15m, not '\(text)'")
    }

    func run() async throws -> ExitCode {
        guard FileManager.default.fileExists(atPath: store) else {
            throw CommandFailure.failure("no log store at \(store) (apps create it with SQLiteLogStore)")
        }
        let logs: SQLiteLogStore
        do {
            logs = try SQLiteLogStore(path: store)
        } catch {
            throw CommandFailure.failure("cannot open the log store \(store): \(error)")
        }
        defer { logs.close() }
        if purge {
            let removed = try logs.purgeExpired()
            FileHandle.standardError.write(Data("purged \(removed) expired records\n".utf8))
        }
        if let export {
            let count: Int
            do {
                count = try logs.export(query, to: URL(fileURLWithPath: export))
            } catch {
                throw CommandFailure.failure("cannot export to \(export): \(error)")
            }
            CLI.say("exported \(count) records to \(export)")
            return .ok
        }
        let formatter = LogFormatter()
        for record in try logs.records(matching: query) {
            if json {
                CLI.say(SQLiteLogStore.jsonLine(record))
            } else {
                CLI.say(formatter.format(record) + (record.device.map { " [\($0)]" } ?? ""))
            }
        }
        return .ok
    }
}
