import AIBudsTestKit
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

/// The passphrase stays off the command line, and only the device's own network is joined
/// (docs/reliability.md, "The Wi-Fi passphrase is visible to every local user").
@Suite("Hotspot joiner secrecy")
struct HotspotJoinerSecrecyTests {
    private let passphrase = "s3cret-Passphrase-42"

    /// A folder with a stand-in `nmcli` that records its arguments and the first line of its input.
    private func standIn() async throws -> (directory: URL, arguments: URL, input: URL) {
        let directory = try makeTemporaryDirectory()
        let arguments = directory.appendingPathComponent("arguments")
        let input = directory.appendingPathComponent("input")
        let script = """
            #!/bin/sh
            for argument in "$@"; do printf '%s\\n' "$argument" >> '\(arguments.path)'; done
            IFS= read -r line; printf '%s\\n' "$line" > '\(input.path)'
            echo "Device 'wlan0' successfully activated"
            """
        try await writeExecutableScript(script, to: directory.appendingPathComponent("nmcli"))
        return (directory, arguments, input)
    }

    private func joiner(_ directory: URL) -> NetworkManagerHotspotJoiner {
        NetworkManagerHotspotJoiner(timeout: .seconds(20), attempts: 1, environment: ["PATH": directory.path])
    }

    @Test func thePassphraseGoesOnStandardInputNotTheCommandLine() async throws {
        let (directory, argumentsFile, inputFile) = try await standIn()
        defer { try? FileManager.default.removeItem(at: directory) }
        let network = HotspotNetwork(ssid: "AIBuds-7F3A", passphrase: passphrase, baseURL: URL(string: "http://192.168.4.1:8080")!)
        try await joiner(directory).join(network)
        let arguments = try String(contentsOf: argumentsFile, encoding: .utf8)
        #expect(!arguments.contains(passphrase), "argv: \(arguments)")
        #expect(arguments.split(separator: "\n").contains("AIBuds-7F3A"))
        #expect(try String(contentsOf: inputFile, encoding: .utf8) == passphrase + "\n")
    }

    @Test(arguments: ["http://8.8.8.8:8080", "http://example.com:80", "http://100.64.0.1:80", "http://[2001:db8::1]:80"])
    func aDataPlaneOffTheDevicesNetworkIsNotJoined(_ url: String) async throws {
        let (directory, argumentsFile, _) = try await standIn()
        defer { try? FileManager.default.removeItem(at: directory) }
        let network = HotspotNetwork(ssid: "AIBuds-7F3A", passphrase: passphrase, baseURL: URL(string: url)!)
        let error = await #expect(throws: HotspotJoinError.self) { try await joiner(directory).join(network) }
        #expect(error?.code == .unreachableAddress)
        #expect(!FileManager.default.fileExists(atPath: argumentsFile.path), "nmcli ran for \(url)")
    }
}
