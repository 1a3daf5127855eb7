import AIBuds
import AIBudsFoundation
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Shows a fetch and an import to a person: redrawn progress bars with speed and ETA on a terminal,
/// plain lines otherwise, nothing at all when the output is JSON.
///
/// Used from the one task that consumes the events, so it needs no lock.
final class MediaImportProgressView {
    /// How the view writes.
    enum Style {
        /// ANSI redraws, `width` columns.
        case terminal(width: Int)
        /// One line per milestone, a progress line every few seconds.
        case plain
        /// Nothing (the command prints JSON).
        case silent

        /// `.terminal` when standard output is a terminal, else `.plain`; `.silent` when `quiet`.
        static func detect(quiet: Bool) -> Style {
            if quiet { return .silent }
            guard isatty(STDOUT_FILENO) == 1 else { return .plain }
            var size = winsize()
            let columns = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
            return .terminal(width: max(50, columns))
        }
    }

    private struct Active {
        var name: String
        var size: UInt64
        var transferred: UInt64 = 0
        var resumedFrom: UInt64?
        /// The last sample of the file's own speed.
        var sample: (bytes: UInt64, at: ContinuousClock.Instant)
        /// The file's smoothed speed in bytes per second.
        var rate: Double = 0

        /// Takes a speed sample at least every quarter second.
        mutating func update(transferred: UInt64, at now: ContinuousClock.Instant) {
            self.transferred = transferred
            let elapsed = (now - sample.at).seconds
            guard elapsed >= 0.25 else { return }
            let instant = Double(transferred - min(transferred, sample.bytes)) / elapsed
            rate = rate == 0 ? instant : rate + 0.3 * (instant - rate)
            sample = (transferred, now)
        }
    }

    private let style: Style
    private let clock = ContinuousClock()
    private var active: [String: Active] = [:]
    private var order: [String] = []
    private var pending: [String] = []
    private var drawnLines = 0
    private var lastDraw: ContinuousClock.Instant?
    private var lastPlainProgress: ContinuousClock.Instant
    private var totalFiles = 0
    private var totalBytes: UInt64 = 0
    private var finishedBytes: UInt64 = 0
    private var finishedFiles = 0
    private var speed: UInt64 = 0
    private var stabilizing: (name: String, progress: Double)?

    /// Creates a view in `style`.
    init(style: Style) {
        self.style = style
        lastPlainProgress = clock.now
    }

    // MARK: Fetch

    /// Shows one step of the fetch.
    func show(_ event: MediaFetchEvent) {
        switch event {
        case .configuringHotspot: line("Configuring the device hotspot…")
        case .hotspotConfigured: line("  hotspot configured")
        case .enteringTransferMode: line("Entering file-transfer mode…")
        case .transferModeEntered: line("  transfer mode ready")
        case .waitingForHotspot: line("Waiting for the device hotspot…")
        case .joiningHotspot(let ssid): line("Joining \(TerminalText.safe(ssid))…")
        case .hotspotJoined: line("  hotspot joined")
        case .listed(let files): line("The device lists \(files.count) media files.")
        }
    }

    /// Shows a failed fetch step.
    func showFetchFailure(_ error: AIBudsError) {
        line("  failed: \(TerminalText.safe(error.message)) (code \(error.code.rawValue))")
    }

    // MARK: Import

    /// Announces an import of `files` into `destination`.
    func begin(_ files: [MediaFileInfoModel], destination: URL) {
        if case .silent = style { return }
        totalFiles = files.count
        totalBytes = files.saturatingSum { $0.fileSize ?? 0 }
        line("Importing \(files.count) files (\(Self.bytes(totalBytes))) into \(destination.path)")
    }

    /// Shows one import event.
    func show(_ event: MediaImportEvent) {
        if case .silent = style { return }
        switch event {
        case .batchProgress:
            break
        case .fileStarted(let file, let taskID):
            let name = TerminalText.safe(file.fileName)
            active[taskID] = Active(name: name, size: file.fileSize ?? 0, sample: (0, clock.now))
            order.append(taskID)
            if case .plain = style { line("start  \(name) (\(Self.bytes(file.fileSize ?? 0)))") }
        case .chunk(let chunk):
            guard var file = active[chunk.taskID] else { return }
            if file.resumedFrom == nil {
                file.resumedFrom = chunk.transferredSize - min(chunk.transferredSize, UInt64(chunk.count))
                file.sample = (file.resumedFrom ?? 0, clock.now)
            }
            file.update(transferred: chunk.transferredSize, at: clock.now)
            file.size = max(file.size, chunk.fileSize)
            active[chunk.taskID] = file
            redraw()
        case .fileFinished(let model, let taskID, let error):
            let file = active.removeValue(forKey: taskID)
            order.removeAll { $0 == taskID }
            finishedFiles += 1
            let name = TerminalText.safe(model.metadata.fileName)
            if let error {
                pending.append("✗ \(name): \(TerminalText.safe(error.message))")
            } else {
                let size = model.metadata.fileSize ?? file?.size ?? 0
                finishedBytes = [finishedBytes, size].saturatingSum { $0 }
                var text = "✓ \(name)  \(Self.bytes(size))"
                if let file, let resumed = file.resumedFrom, resumed > 0 { text += "  (resumed at \(Self.bytes(resumed)))" }
                pending.append(text)
            }
            redraw(force: true)
        case .speed(let bytesPerSecond):
            speed = bytesPerSecond
            redraw()
        case .stabilizationBegan:
            pending.append("Stabilizing videos…")
            redraw(force: true)
        case .stabilizationBatchProgress:
            break
        case .stabilizationProgress(let file, let progress):
            stabilizing = (TerminalText.safe(file.metadata.fileName), progress)
            redraw()
        case .stabilizationFileFinished(let file, let success):
            stabilizing = nil
            pending.append("  \(success ? "stabilized" : "not stabilized") \(TerminalText.safe(file.metadata.fileName))")
            redraw(force: true)
        case .stabilizationFinished:
            break
        case .completed:
            redraw(force: true)
            clearLive()
        }
    }

    /// Prints a permanent line (above the live bars).
    func line(_ text: String) {
        switch style {
        case .silent: return
        case .plain: CLI.say(text)
        case .terminal:
            pending.append(TerminalText.keepingLines(text))
            redraw(force: true)
        }
    }

    // MARK: Drawing

    private var doneBytes: UInt64 { [finishedBytes, active.values.saturatingSum(\.transferred)].saturatingSum { $0 } }

    private func redraw(force: Bool = false) {
        let now = clock.now
        switch style {
        case .silent:
            return
        case .plain:
            for text in pending { CLI.say(text) }
            pending.removeAll()
            if totalFiles > 0, now - lastPlainProgress >= .seconds(5), !active.isEmpty {
                lastPlainProgress = now
                CLI.say("progress \(percent(doneBytes, of: totalBytes))  \(Self.bytes(speed))/s  \(finishedFiles) of \(totalFiles) files")
            }
        case .terminal(let width):
            if !force, let lastDraw, now - lastDraw < .milliseconds(100) { return }
            lastDraw = now
            var out = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
            for text in pending { out += "\r\u{1B}[2K" + Self.fit(text, width) + "\n" }
            pending.removeAll()
            var live: [String] = []
            for id in order.prefix(8) {
                guard let file = active[id] else { continue }
                live.append(bar(for: file, width: width, now: now))
            }
            if let stabilizing {
                live.append(Self.fit("  stabilizing \(stabilizing.name) \(UInt64(saturating: stabilizing.progress * 100))%", width))
            }
            if totalFiles > 0, !active.isEmpty || stabilizing != nil {
                let remaining = totalBytes > doneBytes ? totalBytes - doneBytes : 0
                let eta = speed > 0 ? " ETA \(Self.duration(Double(remaining) / Double(speed)))" : ""
                live.append(Self.fit(
                    "  total \(percent(doneBytes, of: totalBytes))  \(Self.bytes(speed))/s\(eta)  \(finishedFiles)/\(totalFiles) files", width))
            }
            for text in live { out += "\r\u{1B}[2K" + text + "\n" }
            // Clear lines left over from a taller previous frame.
            let stale = max(0, drawnLines - live.count)
            for _ in 0..<stale { out += "\r\u{1B}[2K\n" }
            if stale > 0 { out += "\u{1B}[\(stale)A" }
            drawnLines = live.count
            FileHandle.standardOutput.write(Data(out.utf8))
        }
    }

    private func clearLive() {
        guard case .terminal = style, drawnLines > 0 else { return }
        var out = "\u{1B}[\(drawnLines)A"
        for _ in 0..<drawnLines { out += "\r\u{1B}[2K\n" }
        out += "\u{1B}[\(drawnLines)A"
        drawnLines = 0
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    private func bar(for file: Active, width: Int, now: ContinuousClock.Instant) -> String {
        let fraction = file.size > 0 ? min(1, Double(file.transferred) / Double(file.size)) : 0
        let cells = 20
        let filled = Int((fraction * Double(cells)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
        var tail = "\(String(format: "%3d", Int(fraction * 100)))%"
        if file.rate > 0 {
            let left = Double(file.size - min(file.size, file.transferred)) / file.rate
            tail += "  \(Self.bytes(UInt64(saturating: file.rate)))/s  ETA \(Self.duration(left))"
        }
        let tailWidth = 32
        let nameWidth = max(10, width - cells - tailWidth - 6)
        return "  " + Self.fit(file.name, nameWidth).padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " " + bar + "  "
            + Self.fit(tail, tailWidth)
    }

    private func percent(_ part: UInt64, of whole: UInt64) -> String {
        whole == 0 ? "100%" : "\(min(100, UInt64(saturating: Double(part) * 100 / Double(whole))))%"
    }

    /// `text` cut to `width` characters with an ellipsis.
    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(1, width - 1))) + "…"
    }

    /// Bytes in decimal units: `512 B`, `12.3 MB`.
    static func bytes(_ count: UInt64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: value < 10 ? "%.2f" : "%.1f", value) + " " + units[unit]
    }

    /// Seconds as `45s`, `3m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        // Past 10,000 hours (a lying size, a crawling link) the exact figure means nothing.
        guard seconds.isFinite, seconds >= 0, seconds < 36_000_000 else { return "?" }
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm%02ds", total / 60, total % 60) }
        return String(format: "%dh%02dm", total / 3600, (total % 3600) / 60)
    }
}
