import AIBudsEmulator
import Foundation
import TopStepComKit

/// `aibuds recordings watch`: prints a line each time the device's recording list changes.
struct RecordingsWatchCommand: CLICommand {
    static let path = ["recordings", "watch"]
    static let abstract = "Print a line whenever a device's recording list changes."
    static let help = """
        usage: aibuds recordings watch --device udp://HOST:PORT [--count N] [--timeout SECONDS]

        Prints 'watching: N recordings' once observing, then 'changed audioRecording: N recordings' each time the
        device's list becomes invalid (a new recording, a deletion by anyone), with the count of a
        list fetched again. Runs until SIGINT or SIGTERM, N changes, or the timeout (exit 0).

        options:
        \(Recordings.deviceHelp)
          --count N          stop after N changes
          --timeout SECONDS  stop after this long
        """

    let device: String
    let count: Int?
    let timeout: Double?

    init(_ arguments: inout Arguments) throws {
        device = try Recordings.deviceOption(&arguments)
        count = try arguments.number("--count")
        timeout = try arguments.number("--timeout")
    }

    func validate() throws {
        if let count, count < 1 { throw CommandFailure.usage("--count must be at least 1") }
        // At most a year: a larger (or infinite) number of seconds does not fit a Duration.
        if let timeout, !(timeout > 0 && timeout <= 31_536_000) {
            throw CommandFailure.usage("--timeout must be positive and at most 31536000 seconds")
        }
    }

    func run() async throws -> ExitCode {
        try await Recordings.withKit(device) { kit in try await run(kit) }
    }

    private func run(_ kit: TopStepComKit) async throws -> ExitCode {
        guard kit.mediaFile.supportedOperations(for: .audioRecording).contains(.observeChanges) else {
            throw CommandFailure.failure("the device does not report changes of its recording list")
        }
        // Fetching first makes that list the observation's baseline: any later change is reported.
        let initial = try await Recordings.fetch(kit.mediaFile)
        let (changes, continuation) = AsyncStream.makeStream(of: TSMediaFileType.self)
        kit.mediaFile.registerMediaFileListDidChangedBlock { continuation.yield($0) }
        if let timeout {
            Task {
                try? await Task.sleep(for: .seconds(timeout))
                continuation.finish()
            }
        }
        Task {
            await Emulator.waitForTerminationSignal()
            continuation.finish()
        }
        CLI.say("watching: \(initial.count) recordings")
        var seen = 0
        for await type in changes {
            let files = try await Recordings.fetch(kit.mediaFile)
            CLI.say("changed \(type): \(files.count) recordings")
            seen += 1
            if let count, seen >= count { break }
        }
        return .ok
    }
}
