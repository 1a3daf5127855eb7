import Foundation

extension RunningProgram {
    /// Starts `aibuds emulator --listen 127.0.0.1:0` with `arguments` (profile, name, media) and
    /// waits for the address it listens on (`udp://127.0.0.1:PORT`), which it returns with it.
    /// Throws when the emulator ends or prints anything else first.
    public static func emulator(
        _ aibuds: URL, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (program: RunningProgram, address: String) {
        let program = try RunningProgram(aibuds, ["emulator", "--listen", "127.0.0.1:0"] + arguments, environment: environment)
        let line = try await onOwnThread { program.readLine() } ?? ""
        let prefix = "listening on "
        guard line.hasPrefix(prefix + "udp://") else {
            program.terminate()
            throw EmulatorStartFailure(printed: line)
        }
        return (program, line.dropFirst(prefix.count).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The emulator program printed something other than the address it listens on.
public struct EmulatorStartFailure: Error, CustomStringConvertible {
    /// What it printed first (empty when it ended without a word).
    public var printed: String
    /// The failure for people.
    public var description: String { "the emulator printed '\(printed)' instead of its address" }
}
