import AIBudsProcess
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `aibuds` executable built next to the test bundle.
public func aibudsExecutable() throws -> URL { try requireBuiltProduct("aibuds") }

/// Runs `aibuds` with `arguments` and `environment` additions; returns exit status, stdout and stderr.
/// The wait happens on a thread of its own (see `onOwnThread`), never on Swift concurrency's.
public func runAIBuds(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String, String) {
    let result = try await runProgram(try aibudsExecutable(), arguments, environment: environment)
    return (result.status, result.out, result.err)
}

/// An `aibuds emulator` in its own process (so a test can stop it with SIGSTOP).
public struct EmulatorProcess: Sendable {
    /// The emulator's process.
    public let process: ChildProcess
    /// Where its SMP server listens (`udp://HOST:PORT`), as it announced.
    public let address: String
    /// Its process identifier.
    public var pid: Int32 { process.pid }

    /// Starts the emulator (with `arguments` added) with its announcements under `runtime` and
    /// waits until it has announced itself.
    public static func start(profile: String, name: String, runtime: URL, arguments: [String] = []) async throws -> EmulatorProcess {
        let process = try ChildProcess(
            try aibudsExecutable().path, ["emulator", "--profile", profile, "--name", name, "--listen", "127.0.0.1:0"] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 },
            output: .discard, errors: .discard)
        let pid = process.pid
        let folder = runtime.appendingPathComponent("aibuds/devices")
        var announced: String?
        do {
            try await eventually("emulator \(pid) to announce itself in \(folder.path)") {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                for file in names where file.hasPrefix("\(pid)-") && file.hasSuffix(".json") {
                    if let data = try? Data(contentsOf: folder.appendingPathComponent(file)),
                        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                        let address = object["address"] as? String
                    {
                        announced = address
                    }
                }
                return announced != nil
            }
        } catch {
            EmulatorProcess(process: process, address: "").terminate()
            throw error
        }
        return EmulatorProcess(process: process, address: announced ?? "")
    }

    /// Stops the process with SIGSTOP and waits until the kernel reports every one of its threads
    /// stopped (`T` in /proc): a signal is delivered asynchronously, and a thread still running could
    /// answer a request sent right after `kill`.
    public func freeze() async throws {
        kill(pid, SIGSTOP)
        try await eventually("every thread of emulator \(pid) to stop") { isStopped }
    }

    /// Whether every thread of the process is stopped.
    private var isStopped: Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return !tasks.isEmpty && tasks.allSatisfy { task in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)) ?? ""
            guard let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
        }
    }

    /// Ends the emulator (continuing it first if it was stopped); does not wait for its exit,
    /// which its reaper thread collects.
    public func terminate() {
        process.signal(SIGCONT)
        process.terminate()
    }
}
