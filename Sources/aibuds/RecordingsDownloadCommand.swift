import Foundation
import TopStepComKit

/// `aibuds recordings download`: downloads audio recordings over the control link.
struct RecordingsDownloadCommand: CLICommand {
    static let path = ["recordings", "download"]
    static let abstract = "Download audio recordings over the control link, verified."
    static let help = """
        usage: aibuds recordings download --device udp://HOST:PORT [--to DIR] [--progress] (NAME... | --all)

        Downloads the named recordings (device file names, as 'recordings list' prints them), or all
        of them, into DIR (default: the current folder; created when missing). Each file is checked
        against the device's SHA-256 before it appears; an existing file is never replaced (the
        download takes 'name (1).ext'). Prints one line per file: NAME, a tab, the local path.

        options:
        \(Recordings.deviceHelp)
          --to DIR           the destination folder
          --all              every recording on the device
          --progress         print the progress of each file to standard error
        """

    let device: String
    let folder: String
    let all: Bool
    let progress: Bool
    let names: [String]

    init(_ arguments: inout Arguments) throws {
        device = try Recordings.deviceOption(&arguments)
        folder = try arguments.option("--to") ?? FileManager.default.currentDirectoryPath
        all = arguments.flag("--all")
        progress = arguments.flag("--progress")
        names = try arguments.positionals()
    }

    func validate() throws {
        if all, !names.isEmpty { throw CommandFailure.usage("give recording names or --all, not both") }
        if !all, names.isEmpty { throw CommandFailure.usage("name the recordings to download, or give --all") }
    }

    func run() async throws -> ExitCode {
        try await Recordings.withKit(device) { kit in try await run(kit) }
    }

    private func run(_ kit: TopStepComKit) async throws -> ExitCode {
        let files = try await Recordings.fetch(kit.mediaFile)
        let selected = all ? files : try Recordings.select(names, from: files)
        for file in selected {
            let name = file.fileName
            var report: (@MainActor @Sendable (Double) -> Void)?
            if progress {
                report = { (percent: Double) in
                    let line = TerminalText.safe(name) + ": " + String(format: "%.1f", percent) + "%\n"
                    FileHandle.standardError.write(Data(line.utf8))
                }
            }
            let path = try await Recordings.download(kit.mediaFile, file, to: folder, progress: report)
            CLI.say("\(TerminalText.safe(name))\t\(path)")
        }
        return .ok
    }
}
