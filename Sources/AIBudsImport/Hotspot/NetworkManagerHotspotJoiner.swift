import AIBudsLog
import Foundation

/// Joins a real device hotspot through NetworkManager:
/// `nmcli --ask device wifi connect SSID [ifname IFACE]`, with the passphrase on `nmcli`'s
/// standard input.
///
/// The passphrase is never on a command line (which every local user can read in `/proc`); log
/// messages and errors name the SSID and never the passphrase (anything `nmcli` prints is scrubbed
/// of it before it is logged or thrown). Only a data plane that `HotspotAddressRule` allows
/// (loopback or a private address literal) is joined: a device that names a public address or a
/// host name gets `unreachableAddress` and no Wi-Fi change.
public struct NetworkManagerHotspotJoiner: HotspotJoiner {
    /// The program to run: a name looked up on `PATH`, or a path.
    public var executable: String
    /// The Wi-Fi interface to use, or `nil` for NetworkManager's choice.
    public var interface: String?
    /// How long one `nmcli` run may take before it is stopped.
    public var timeout: Duration
    /// How many times to try (a hotspot that just opened may not be in the scan list yet).
    public var attempts: Int
    /// The pause between attempts.
    public var retryDelay: Duration
    /// The environment for the lookup of `executable` and for `nmcli` itself.
    public var environment: [String: String]
    /// Where progress and failures are logged.
    public var logger: any LogService

    /// Creates a joiner that runs `nmcli` from `PATH`.
    public init(
        executable: String = "nmcli", interface: String? = nil, timeout: Duration = .seconds(45),
        attempts: Int = 3, retryDelay: Duration = .seconds(2),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: any LogService = NullLogService()
    ) {
        self.executable = executable
        self.interface = interface
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.retryDelay = retryDelay
        self.environment = environment
        self.logger = logger
    }

    /// Runs `nmcli` until it succeeds or the attempts are used up.
    public func join(_ network: HotspotNetwork) async throws {
        guard let host = network.baseURL.host, HotspotAddressRule.allows(host) else {
            throw HotspotJoinError(
                .unreachableAddress,
                "the device's data plane \(network.baseURL.absoluteString) is not a private address on its hotspot; not joining '\(network.ssid)'")
        }
        guard let tool = ExecutableLocator.find(executable, environment: environment) else {
            throw HotspotJoinError(.toolNotFound, "'\(executable)' was not found on PATH; install NetworkManager")
        }
        // `--ask` reads the passphrase from standard input when the network needs one.
        var arguments = ["--ask", "device", "wifi", "connect", network.ssid]
        if let interface { arguments += ["ifname", interface] }
        var lastError = HotspotJoinError(.toolFailed(exitStatus: -1), "nmcli did not run")
        for attempt in 1...attempts {
            try Task.checkCancellation()
            logger.log(.info, "hotspot", "joining Wi-Fi '\(network.ssid)' with nmcli (attempt \(attempt) of \(attempts))")
            let result = try await ProcessRunner.run(
                tool, arguments: arguments, environment: environment, input: Data((network.passphrase + "\n").utf8),
                timeout: timeout)
            let output = Self.scrub(result.output, secret: network.passphrase)
            if result.timedOut {
                lastError = HotspotJoinError(.timedOut, "nmcli did not join '\(network.ssid)' within \(timeout)")
            } else if result.status == 0 {
                logger.log(.info, "hotspot", "joined Wi-Fi '\(network.ssid)'")
                return
            } else {
                let detail = output.isEmpty ? "" : ": \(output)"
                lastError = HotspotJoinError(
                    .toolFailed(exitStatus: result.status),
                    "nmcli could not join '\(network.ssid)' (exit status \(result.status))\(detail)")
            }
            logger.log(.warning, "hotspot", lastError.message)
            if attempt < attempts { try await Task.sleep(for: retryDelay) }
        }
        throw lastError
    }

    /// `text` trimmed, with every occurrence of `secret` replaced.
    static func scrub(_ text: String, secret: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else { return trimmed }
        return trimmed.replacingOccurrences(of: secret, with: "<redacted>")
    }
}

/// Finds a program the way a shell does.
enum ExecutableLocator {
    /// The URL of `name` (a path, or a name searched in `environment["PATH"]`), if it is executable.
    static func find(_ name: String, environment: [String: String]) -> URL? {
        let manager = FileManager.default
        if name.contains("/") { return manager.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
        let path = environment["PATH"] ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
