import AIBuds
import AIBudsImport
import AIBudsFoundation
import Foundation

/// Shows a fetch and an import to a person: redrawn progress bars with speed and ETA on a terminal,
/// plain lines otherwise, nothing at all when the output is JSON.
///
/// Used from the one task that consumes the events, so it needs no lock.
final class MediaImportProgressView {
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

    private let output: LiveLines
    private let clock = ContinuousClock()
    private var active: [String: Active] = [:]
    private var order: [String] = []
    private var totalFiles = 0
    private var totalBytes: UInt64 = 0
    private var finishedBytes: UInt64 = 0
    private var finishedFiles = 0
    private var speed: UInt64 = 0
    private var stabilizing: (name: String, progress: Double)?

    /// Creates a view in `style`.
    init(style: LiveLines.Style) {
        output = LiveLines(style: style)
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
        if output.isSilent { return }
        totalFiles = files.count
        totalBytes = files.saturatingSum { $0.fileSize ?? 0 }
        line("Importing \(files.count) files (\(TerminalText.bytes(totalBytes))) into \(destination.path)")
    }

    /// Shows one import event.
    func show(_ event: MediaImportEvent) {
        if output.isSilent { return }
        switch event {
        case .batchProgress:
            break
        case .fileStarted(let file, let taskID):
            let name = TerminalText.safe(file.fileName)
            active[taskID] = Active(name: name, size: file.fileSize ?? 0, sample: (0, clock.now))
            order.append(taskID)
            if output.isPlain { line("start  \(name) (\(TerminalText.bytes(file.fileSize ?? 0)))") }
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
                output.add("✗ \(name): \(TerminalText.safe(error.message))")
            } else {
                let size = model.metadata.fileSize ?? file?.size ?? 0
                finishedBytes = [finishedBytes, size].saturatingSum { $0 }
                var text = "✓ \(name)  \(TerminalText.bytes(size))"
                if let file, let resumed = file.resumedFrom, resumed > 0 { text += "  (resumed at \(TerminalText.bytes(resumed)))" }
                output.add(text)
            }
            redraw(force: true)
        case .speed(let bytesPerSecond):
            speed = bytesPerSecond
            redraw()
        case .stabilizationBegan:
            output.add("Stabilizing videos…")
            redraw(force: true)
        case .stabilizationBatchProgress:
            break
        case .stabilizationProgress(let file, let progress):
            stabilizing = (TerminalText.safe(file.metadata.fileName), progress)
            redraw()
        case .stabilizationFileFinished(let file, let success):
            stabilizing = nil
            output.add("  \(success ? "stabilized" : "not stabilized") \(TerminalText.safe(file.metadata.fileName))")
            redraw(force: true)
        case .stabilizationFinished:
            break
        case .completed:
            redraw(force: true)
            output.clear()
        }
    }

    /// Prints a permanent line (above the live bars).
    func line(_ text: String) {
        output.add(text)
        redraw(force: true)
    }

    // MARK: Drawing

    private var doneBytes: UInt64 { [finishedBytes, active.values.saturatingSum(\.transferred)].saturatingSum { $0 } }

    private func redraw(force: Bool = false) {
        output.draw(force: force, live: liveLines) {
            guard totalFiles > 0, !active.isEmpty else { return nil }
            return "progress \(percent(doneBytes, of: totalBytes))  \(TerminalText.bytes(speed))/s  \(finishedFiles) of \(totalFiles) files"
        }
    }

    private func liveLines() -> [String] {
        guard case .terminal(let width) = output.style else { return [] }
        let now = clock.now
        var live: [String] = []
        for id in order.prefix(8) {
            guard let file = active[id] else { continue }
            live.append(bar(for: file, width: width, now: now))
        }
        if let stabilizing {
            live.append("  stabilizing \(stabilizing.name) \(UInt64(saturating: stabilizing.progress * 100))%")
        }
        if totalFiles > 0, !active.isEmpty || stabilizing != nil {
            let remaining = totalBytes > doneBytes ? totalBytes - doneBytes : 0
            let eta = speed > 0 ? " ETA \(TerminalText.duration(Double(remaining) / Double(speed)))" : ""
            live.append("  total \(percent(doneBytes, of: totalBytes))  \(TerminalText.bytes(speed))/s\(eta)  \(finishedFiles)/\(totalFiles) files")
        }
        return live
    }

    private func bar(for file: Active, width: Int, now: ContinuousClock.Instant) -> String {
        let fraction = file.size > 0 ? min(1, Double(file.transferred) / Double(file.size)) : 0
        let cells = 20
        let filled = Int((fraction * Double(cells)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
        var tail = "\(String(format: "%3d", Int(fraction * 100)))%"
        if file.rate > 0 {
            let left = Double(file.size - min(file.size, file.transferred)) / file.rate
            tail += "  \(TerminalText.bytes(UInt64(saturating: file.rate)))/s  ETA \(TerminalText.duration(left))"
        }
        let tailWidth = 32
        let nameWidth = max(10, width - cells - tailWidth - 6)
        return "  " + TerminalText.fit(file.name, nameWidth).padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " " + bar + "  "
            + TerminalText.fit(tail, tailWidth)
    }

    private func percent(_ part: UInt64, of whole: UInt64) -> String {
        whole == 0 ? "100%" : "\(min(100, UInt64(saturating: Double(part) * 100 / Double(whole))))%"
    }
}
