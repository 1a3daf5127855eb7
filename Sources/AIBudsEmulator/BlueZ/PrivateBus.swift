import AIBudsProcess
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `dbus-daemon` of this process's own (Debian's dbus package), for a ``BlueZStandIn`` and its
/// clients where no BlueZ exists: a custom bus on a socket in the temporary folder that lets
/// anyone own any name, ended by ``stop()`` or when this object goes away.
public final class PrivateBus: @unchecked Sendable {
    /// The bus address (`unix:path=…,guid=…`), for `DBUS_SYSTEM_BUS_ADDRESS` or `--bus`.
    public let address: String
    // Set once in init.
    private let process: ChildProcess
    private let folder: URL

    /// Starts the daemon and waits for its address. Blocks up to 10 seconds: call it off Swift
    /// concurrency's threads in tests.
    public init(daemon: String = "/usr/bin/dbus-daemon") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>custom</type>
              <listen>unix:dir=\(folder.path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
                <allow user="*"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        let process: ChildProcess
        do {
            process = try ChildProcess(
                daemon, ["--config-file=\(config.path)", "--print-address=1", "--nofork", "--nopidfile"], errors: .discard)
        } catch {
            throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "cannot run \(daemon) (Debian's dbus package): \(error)"])
        }
        self.process = process
        var text = Data()
        let deadline = Date().addingTimeInterval(10)
        let reader = process.standardOutput!
        while !text.contains(UInt8(ascii: "\n")), Date() < deadline, process.isRunning {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text.append(chunk)
        }
        let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix("unix:") else {
            process.kill()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "dbus-daemon printed no address"])
        }
        address = line
    }

    deinit { stop() }

    /// Ends the daemon and removes its folder. Idempotent.
    public func stop() {
        if process.kill() { _ = process.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }
}
