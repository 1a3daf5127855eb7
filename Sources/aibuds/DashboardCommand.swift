import AIBudsAIDashboard
import AIBudsLog
import AIBudsLogStore
import AIBudsEmulator
import AIBudsNet
import Foundation

/// `aibuds dashboard`: serves the AI dashboard until Ctrl-C.
struct DashboardCommand: CLICommand {
    static let path = ["dashboard"]
    static let abstract = "Serve the AI dashboard (records of AI sessions) on a local web page."
    static let help = """
        usage: aibuds dashboard [--listen HOST:PORT] [--data DIR] [--max-records N] [--export DIR]

        Serves the AI dashboard and prints its address with the access token once; open it in a
        browser. It listens on 127.0.0.1 (loopback only) unless --listen names another address:
        anyone who can reach that address and has the token sees the records.

        options:
          --listen HOST:PORT  the address to listen on (default 127.0.0.1:8765; port 0 picks one)
          --data DIR          where records are kept (default $XDG_DATA_HOME/aibuds/dashboard)
          --max-records N     keep at most N records, the newest (default 1000)
          --export DIR        write every record (records.json and audio/*.wav) to DIR and exit
        """

    var listen: SocketAddress
    var data: URL
    var maxRecords: Int
    var export: String?

    init(_ arguments: inout Arguments) throws {
        let text = try arguments.option("--listen") ?? "127.0.0.1:8765"
        do {
            listen = try SocketAddress(parsing: text)
        } catch {
            throw CommandFailure.usage("--listen takes HOST:PORT, not '\(text)'")
        }
        if let directory = try arguments.option("--data") {
            data = URL(fileURLWithPath: directory)
        } else {
            data = AISessionRecords.defaultDirectory()
        }
        maxRecords = try arguments.number("--max-records") ?? 1000
        guard maxRecords > 0 else { throw CommandFailure.usage("--max-records takes a positive number") }
        export = try arguments.option("--export")
        try arguments.finish()
    }

    func run() async throws -> ExitCode {
        if let export {
            let store = try AIRecordStore(directory: data, maximumRecords: maxRecords)
            let report: AIRecordStore.ExportReport
            do {
                report = try store.export(to: URL(fileURLWithPath: export))
            } catch {
                throw CommandFailure.failure("cannot export to \(export): \(error)")
            }
            for (id, reason) in report.skipped { CLI.printError("warning: record \(id) was left out: \(reason)") }
            CLI.say("exported \(report.exported) records to \(export)"
                + (report.skipped.isEmpty ? "" : " (\(report.skipped.count) unreadable left out)"))
            return .ok
        }
        let logStore = try? SQLiteLogStore(path: SQLiteLogStore.defaultPath())
        let logger = FanOutLogService(minimumLevel: .info, destinations: logStore.map { [$0] } ?? [])
        let dashboard: AIBudsAIDashboard
        do {
            dashboard = try AIBudsAIDashboard.start(
                port: listen.port, host: listen.host, directory: data, maximumRecords: maxRecords, logger: logger)
        } catch {
            throw CommandFailure.failure("cannot start the dashboard on \(listen): \(error)")
        }
        if !Self.isLoopback(listen.host) {
            FileHandle.standardError.write(Data("warning: listening on \(listen.host): reachable from the network\n".utf8))
        }
        CLI.say("dashboard: \(dashboard.url)")
        CLI.say("records: \(data.path)")
        // Serve until Ctrl-C or SIGTERM.
        await Emulator.waitForTerminationSignal()
        dashboard.stop()
        logStore?.close()
        return .ok
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
