import AIBudsNet
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs one timed command under `/usr/bin/time` (its peak RSS and CPU times), started with
/// `posix_spawn` and reaped with `waitpid`; the wall time is measured here, around both.
///
/// Foundation's `Process` noticed a child's exit up to ~50 ms late here (a 0.20 s `sleep` took
/// 0.25 s through `Process` and `waitUntilExit`), which added the same constant to every client's
/// time and squeezed the ratios. `/usr/bin/time` stays in between for the peak RSS: a child
/// spawned straight from this process would report this process's peak (Linux keeps the
/// high-water mark across `execve`, and `posix_spawn` shares the parent's memory until then).
/// Standard output goes to a file, read after the exit, so no reader runs beside the command.
enum BenchSpawn {
    /// Runs `executable` with `arguments`; its exit status and what was measured.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, sample: BenchRun.Sample) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-bench-\(UUID().uuidString)").path
        let outputPath = scratch + ".out"
        let timePath = scratch + ".time"
        defer {
            unlink(outputPath)
            unlink(timePath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let command = [time, "-f", "%M %U %S", "-o", timePath, executable] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, time, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchFailure("cannot start \(time): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        if case .failure(let failure) = SystemCall.result("waitpid", { waitpid(pid, &status, 0) }) {
            throw BenchFailure("waitpid for \(executable) failed: \(failure)")
        }
        let wall = seconds(since: start)

        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        // /usr/bin/time's last line (after any "Command exited with non-zero status" line).
        let fields = ((try? String(contentsOfFile: timePath, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace)
        guard fields.count >= 3, let rss = Int(fields[fields.count - 3]) else { throw BenchFailure("cannot read /usr/bin/time output") }
        let sample = BenchRun.Sample(
            wall: wall, maxRSSKiB: rss, userSeconds: Double(fields[fields.count - 2]) ?? 0, systemSeconds: Double(fields[fields.count - 1]) ?? 0,
            output: output)
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), sample)
    }

    private static let time = "/usr/bin/time"
}
