import AIBudsFoundation
import AIBudsSyntheticVideo
import Foundation

/// What the demo did and where to look, printed at its end.
struct DemoSummary {
    /// Where the demo writes (the user's `--to DIR` when `kept`, else a temporary folder).
    let output: URL
    let kept: Bool
    var listed = 0
    var imported: [ImportedMediaFileModel] = []
    var verified = 0
    var bytes: UInt64 = 0
    var importSeconds = 0.0
    var stabilizationSeconds = 0.0
    var importError: String?
    var comparisons: [StabilizationComparison.Output] = []
    var heard: String?
    var answer: String?
    var speaker: URL?
    /// What the voice command did on the glasses (`photo NAME`).
    var voiceCommand: String?
    var recordings: [(name: String, size: UInt64, local: URL)] = []
    var problems: [String] = []
    var total: Duration = .zero

    private func path(_ url: URL) -> String {
        let full = url.standardizedFileURL.path
        let base = output.standardizedFileURL.path + "/"
        return full.hasPrefix(base) ? String(full.dropFirst(base.count)) : full
    }

    func print() {
        let stabilized = imported.filter { $0.stabilizationStatus == .stabilized }
        let videos = imported.filter { $0.metadata.fileType == .video }
        let rate = importSeconds > 0 ? UInt64(Double(bytes) / importSeconds) : 0
        var lines = ["", "Summary (\(String(format: "%.1f", total.seconds)) s)"]
        lines.append("  imported     \(imported.count) of \(listed) files, \(TerminalText.bytes(bytes)) in "
            + String(format: "%.2f s", importSeconds) + " (\(TerminalText.bytes(rate))/s)")
        lines.append("  verified     \(verified) of \(imported.count) files match the device's SHA-256")
        lines.append("  stabilized   \(stabilized.count) of \(videos.count) videos in " + String(format: "%.1f s", stabilizationSeconds)
            + " (gyro EIS from each video's six-axis log)")
        for file in stabilized {
            guard let copy = file.stabilizedFileURL else { continue }
            lines.append("               \(path(file.localFileURL)) → \(path(copy))")
        }
        for comparison in comparisons {
            lines.append("  compare      \(path(comparison.sideBySide))  (original | stabilized)")
            lines.append("               \(path(comparison.contactSheet))  (motion trails: shake blurs the original)")
        }
        lines.append("  AI heard     \(heard.map { "\"\($0)\"" } ?? "nothing")")
        lines.append("  AI answered  \(answer.map { "\"\($0)\"" } ?? "nothing") (offline: Apertium en→es, spoken by espeak-ng)")
        if let speaker { lines.append("               the glasses' speaker played it: \(path(speaker))") }
        lines.append("  voice        \"\(DemoContent.commandText)\" → \(voiceCommand.map { "\($0) taken on the glasses" } ?? "nothing")")
        lines.append("  recordings   \(recordings.count) on the watch through TopStep's TSMediaFile:")
        for recording in recordings {
            lines.append("               \(path(recording.local)) (\(TerminalText.bytes(recording.size)))")
        }
        if let importError { lines.append("  error        \(importError)") }
        for problem in problems { lines.append("  problem      \(problem)") }
        lines.append("  folder       \(output.path)" + (kept ? "" : " (temporary, removed now; keep it with --to DIR)"))
        for line in lines { CLI.say(line) }
    }
}
