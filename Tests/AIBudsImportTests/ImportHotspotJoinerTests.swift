import AIBudsLog
import AIBudsTestKit
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

@Suite("Hotspot joiners")
struct ImportHotspotJoinerTests {
    private let network = HotspotNetwork(
        ssid: "AIBuds-7F3A", passphrase: "s3cret-Passphrase-42", baseURL: URL(string: "http://192.168.4.1:8080")!)

    /// A folder holding a stand-in `nmcli` that records its arguments and behaves as `body` says.
    private func standIn(_ body: String) async throws -> (directory: URL, argumentsFile: URL) {
        let directory = try makeTemporaryDirectory("nmcli")
        let argumentsFile = directory.appendingPathComponent("arguments")
        let script = """
            #!/bin/sh
            for argument in "$@"; do printf '%s\\n' "$argument" >> '\(argumentsFile.path)'; done
            \(body)
            """
        let tool = directory.appendingPathComponent("nmcli")
        try await writeExecutableScript(script, to: tool)  // not a "text file busy" when run
        return (directory, argumentsFile)
    }

    private func joiner(_ directory: URL, logger: any LogService = NullLogService(), timeout: Duration = .seconds(10), attempts: Int = 1) -> NetworkManagerHotspotJoiner {
        NetworkManagerHotspotJoiner(
            timeout: timeout, attempts: attempts, retryDelay: .milliseconds(10),
            environment: ["PATH": directory.path], logger: logger)
    }

    @Test func joinsWithTheDocumentedCommandLine() async throws {
        let (directory, argumentsFile) = try await standIn("echo \"Device 'wlan0' successfully activated\"; exit 0")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = RecordingLogService(redactor: LogRedactor())
        try await joiner(directory, logger: log).join(network)
        let arguments = try String(contentsOf: argumentsFile, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments == ["--ask", "device", "wifi", "connect", "AIBuds-7F3A"])
        #expect(log.messages.contains { $0.contains("AIBuds-7F3A") })
        #expect(!log.messages.contains { $0.contains("s3cret-Passphrase-42") })
    }

    @Test func failureIsTypedAndNeverShowsThePassphrase() async throws {
        // A tool that echoes its arguments (the passphrase among them) when it fails.
        let (directory, _) = try await standIn("echo \"Error: cannot connect with $*\" >&2; exit 4")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = RecordingLogService(redactor: LogRedactor())
        let error = await #expect(throws: HotspotJoinError.self) {
            try await joiner(directory, logger: log, attempts: 2).join(network)
        }
        #expect(error?.code == .toolFailed(exitStatus: 4))
        #expect(error?.message.contains("AIBuds-7F3A") == true)
        #expect(error?.message.contains("Error: cannot connect") == true)
        #expect(error.map { "\($0)" }?.contains("s3cret") == false)
        #expect(!log.messages.contains { $0.contains("s3cret") })
        #expect(log.messages.filter { $0.contains("attempt") }.count == 2)
        #expect("\(network)".contains("s3cret") == false)
        #expect(String(reflecting: network).contains("s3cret") == false)
    }

    @Test func missingToolIsReported() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
        let error = await #expect(throws: HotspotJoinError.self) {
            try await joiner(empty).join(network)
        }
        #expect(error?.code == .toolNotFound)
    }

    @Test func aHangingToolIsStoppedAfterTheTimeout() async throws {
        let (directory, _) = try await standIn("exec /bin/sleep 120")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: HotspotJoinError.self) {
            try await joiner(directory, timeout: .milliseconds(300)).join(network)
        }
        #expect(error?.code == .timedOut)
        // Stopped, not waited for: far below the tool's 120 s, however loaded the machine.
        #expect(clock.now - started < .seconds(30))
    }

    @Test func cancellingStopsTheTool() async throws {
        let (directory, _) = try await standIn("exec /bin/sleep 120")
        defer { try? FileManager.default.removeItem(at: directory) }
        let joiner = joiner(directory, timeout: .seconds(60))
        let network = network
        let task = Task { try await joiner.join(network) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let clock = ContinuousClock()
        let started = clock.now
        let result = await task.result
        // Ended by the cancellation: far below the 60 s timeout and the tool's 120 s.
        #expect(clock.now - started < .seconds(30))
        #expect(throws: (any Error).self) { try result.get() }
    }

    @Test func loopbackJoinerAcceptsOnlyLoopbackAddresses() async throws {
        let joiner = LoopbackHotspotJoiner()
        for address in ["http://127.0.0.1:8080", "http://127.3.4.5:1", "http://localhost:80", "http://[::1]:9"] {
            try await joiner.join(HotspotNetwork(ssid: "x", passphrase: "y", baseURL: URL(string: address)!))
        }
        for address in ["http://192.168.4.1:8080", "http://128.0.0.1:1", "http://127.0.0:1", "http://example.com"] {
            let error = await #expect(throws: HotspotJoinError.self) {
                try await joiner.join(HotspotNetwork(ssid: "x", passphrase: "y", baseURL: URL(string: address)!))
            }
            #expect(error?.code == .unreachableAddress)
        }
    }
}
