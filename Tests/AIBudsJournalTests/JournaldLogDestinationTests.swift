import AIBudsJournal
import AIBudsLog
import AIBudsTestKit
import Foundation
import Testing

/// Makes sure a journald listens on the system socket: the one running, or one this suite starts
/// (`/lib/systemd/systemd-journald`, which runs without systemd as PID 1) and leaves running only
/// while needed.
final class Journald: @unchecked Sendable {
    static let socketPath = "/run/systemd/journal/socket"
    private var started: RunningProgram?

    init() throws {
        if Self.isListening() { return }
        let daemon = URL(fileURLWithPath: "/lib/systemd/systemd-journald")
        guard FileManager.default.isExecutableFile(atPath: daemon.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "systemd-journald is not installed"])
        }
        started = try RunningProgram(daemon, [])
    }

    /// Whether something accepts datagrams on journald's socket.
    static func isListening() -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in Self.socketPath.utf8.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// Ends the journald this suite started, waiting on a thread of its own.
    func stop() async throws {
        guard let started else { return }
        started.terminate()
        _ = try await onOwnThread { started.finish() }
    }
}

@Suite(.timeLimit(.minutes(2)), .serialized) struct JournaldLogDestinationTests {
    /// The journal entries with `AIBUDS_TEST_RUN=run`, as journalctl prints them in JSON.
    func entries(run: String) async throws -> [[String: Any]] {
        let output = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/journalctl"), ["--no-pager", "-o", "json", "--all", "AIBUDS_TEST_RUN=\(run)"]
        ).output
        return output.split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }
    }

    @Test func entriesReachJournaldWithStructuredFields() async throws {
        let journald = try Journald()
        do {
            try await checkEntries()
        } catch {
            try await journald.stop()
            throw error
        }
        try await journald.stop()
    }

    func checkEntries() async throws {
        try await eventually("journald listening on \(Journald.socketPath)", timeout: .seconds(30)) { Journald.isListening() }
        let run = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let destination = try JournaldLogDestination(identifier: "aibuds-test", extraFields: ["AIBUDS_TEST_RUN": run])
        let redactor = LogRedactor()
        let service = FanOutLogService(minimumLevel: .trace, destinations: [destination], redactor: redactor)
        service.log(.warning, "smp", device: "glasses-9", "retransmit 3, password=letmein\nnext line")
        service.log(.debug, "import", "plain")
        #expect(destination.failedWriteCount == 0)
        var found: [[String: Any]] = []
        try await eventually("both entries in the journal", timeout: .seconds(30)) {
            found = try await entries(run: run)
            return found.count == 2
        }
        let warning = try #require(found.first { $0["AIBUDS_MODULE"] as? String == "smp" })
        #expect(warning["MESSAGE"] as? String == "retransmit 3, password=<redacted>\nnext line")
        #expect(warning["PRIORITY"] as? String == "4")
        #expect(warning["AIBUDS_LEVEL"] as? String == "warning")
        #expect(warning["AIBUDS_DEVICE"] as? String == "glasses-9")
        #expect(warning["SYSLOG_IDENTIFIER"] as? String == "aibuds-test")
        let debug = try #require(found.first { $0["AIBUDS_MODULE"] as? String == "import" })
        #expect(debug["PRIORITY"] as? String == "7")
        #expect(debug["AIBUDS_DEVICE"] == nil)
    }

    @Test func invalidFieldNamesAreRefused() {
        #expect(throws: JournaldLogDestination.InvalidFieldName.self) {
            _ = try JournaldLogDestination(extraFields: ["_PID": "1"])
        }
        #expect(throws: JournaldLogDestination.InvalidFieldName.self) {
            _ = try JournaldLogDestination(extraFields: ["lower": "1"])
        }
        #expect(JournaldLogDestination.isValidFieldName("AIBUDS_APP_2"))
    }
}
