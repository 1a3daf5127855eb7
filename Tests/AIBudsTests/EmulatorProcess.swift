import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `aibuds` executable built next to the test bundle.
func aibudsExecutable() throws -> URL {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("aibuds"),
        Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("aibuds"),
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/aibuds"),
    ]
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the aibuds executable is not built"])
    }
    return found
}

/// Runs `aibuds` with `arguments` and `environment` additions; returns exit status, stdout and stderr.
func runAIBuds(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = try aibudsExecutable()
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
}

/// An `aibuds emulator` in its own process (so a test can stop it with SIGSTOP).
struct EmulatorProcess {
    let process: Process
    let address: String
    var pid: Int32 { process.processIdentifier }

    /// Starts the emulator with its announcements under `runtime` and waits until it has announced itself.
    static func start(profile: String, name: String, runtime: URL) throws -> EmulatorProcess {
        let process = Process()
        process.executableURL = try aibudsExecutable()
        process.arguments = ["emulator", "--profile", profile, "--name", name, "--listen", "127.0.0.1:0"]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let folder = runtime.appendingPathComponent("aibuds/devices")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for file in names where file.hasPrefix("\(process.processIdentifier)-") && file.hasSuffix(".json") {
                if let data = try? Data(contentsOf: folder.appendingPathComponent(file)),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let address = object["address"] as? String
                {
                    return EmulatorProcess(process: process, address: address)
                }
            }
            usleep(20_000)
        }
        process.terminate()
        throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the emulator did not announce itself"])
    }

    /// Stops the process with SIGSTOP and waits until the kernel reports it stopped (`T` in /proc).
    func freeze() throws {
        kill(pid, SIGSTOP)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T") {
                return
            }
            usleep(1_000)
        }
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "the emulator did not stop"])
    }

    /// Ends the emulator (continuing it first if it was stopped).
    func terminate() {
        kill(pid, SIGCONT)
        process.terminate()
        process.waitUntilExit()
    }
}
