import AIBuds
import AIBudsImport
import AIBudsFoundation
import Foundation

/// One progress view for a station's many devices: one redrawn line per device (files, bytes,
/// speed) and a station total on a terminal; a line per device milestone and a total every few
/// seconds otherwise; nothing for JSON. Used from the one task that consumes the events.
final class FleetProgressView {
    private struct Device {
        var name: String
        var state = "connecting"
        var files = 0
        var done = 0
        var failed = 0
        var totalBytes: UInt64 = 0
        var finishedBytes: UInt64 = 0
        var activeBytes: [String: UInt64] = [:]
        var speed: UInt64 = 0
        var bytes: UInt64 { [finishedBytes, activeBytes.values.saturatingSum { $0 }].saturatingSum { $0 } }
    }

    private let output: LiveLines
    private var devices: [String: Device] = [:]
    private var order: [String] = []

    /// Creates a view in `style`.
    init(style: LiveLines.Style) {
        output = LiveLines(style: style)
    }

    /// Prints a permanent line above the live ones.
    func line(_ text: String) {
        output.add(text)
        redraw(force: true)
    }

    /// Shows one event of the station.
    func show(_ event: FleetImportEvent) {
        if output.isSilent { return }
        switch event {
        case .fetch(let id, let step):
            if case .listed(let files) = step { update(id) { $0.state = "listed \(files.count) files" } }
            else { update(id) { $0.state = "preparing" } }
        case .started(let id, let files, let skipped, _, let transfers):
            update(id) { device in
                device.state = "importing (\(transfers) at once)"
                device.files = files.count
                device.totalBytes = files.saturatingSum { $0.fileSize ?? 0 }
            }
            if !skipped.isEmpty { line("\(name(id)): skipping \(skipped.count) files imported before (--new)") }
        case .progress(let id, let event):
            switch event {
            case .chunk(let chunk):
                update(id) { $0.activeBytes[chunk.taskID] = chunk.transferredSize }
            case .fileFinished(let model, let taskID, let error):
                update(id) { device in
                    device.activeBytes[taskID] = nil
                    if error == nil {
                        device.done += 1
                        device.finishedBytes = [device.finishedBytes, model.metadata.fileSize ?? 0].saturatingSum { $0 }
                    } else {
                        device.failed += 1
                    }
                }
                if let error {
                    line("\(name(id)): ✗ \(TerminalText.safe(model.metadata.fileName)): \(TerminalText.safe(error.message))")
                }
            case .speed(let rate):
                update(id) { $0.speed = rate }
            default:
                break
            }
        case .stored(let id, let model):
            if output.isPlain, let url = model.objectURL {
                line("\(name(id)): stored \(TerminalText.safe(model.metadata.fileName)) as \(TerminalText.safe(url.absoluteString))")
            }
        case .finished(let result):
            update(result.deviceID) { device in
                device.speed = 0
                device.activeBytes = [:]
                device.state = result.success ? "done" : "failed"
            }
            let imported = result.result?.importedFiles.count ?? 0
            let why = result.error ?? result.result?.error
            let place: String = TerminalText.safe(result.location)
            let reason: String = why.map { " — " + TerminalText.safe($0.message) } ?? ""
            line("\(name(result.deviceID)): imported \(imported) of \(result.requested.count) files into \(place)\(reason)")
        }
    }

    /// Removes the live lines (before the summary).
    func end() {
        redraw(force: true)
        output.clear()
    }

    private func name(_ id: String) -> String { TerminalText.safe(id) }

    private func update(_ id: String, _ change: (inout Device) -> Void) {
        if devices[id] == nil {
            devices[id] = Device(name: name(id))
            order.append(id)
        }
        change(&devices[id]!)
        redraw()
    }

    private func redraw(force: Bool = false) {
        let total = order.compactMap { devices[$0] }
        let speed = total.saturatingSum(\.speed)
        let bytes = total.saturatingSum(\.bytes)
        let files = total.reduce(0) { $0 + $1.done }
        output.draw(force: force) {
            total.map { device in
                "  \(TerminalText.fit(device.name, 24).padding(toLength: 24, withPad: " ", startingAt: 0)) "
                    + "\(device.done)/\(device.files) files  \(TerminalText.bytes(device.bytes))"
                    + " of \(TerminalText.bytes(device.totalBytes))  \(TerminalText.bytes(device.speed))/s  \(device.state)"
            } + ["  station: \(files) files, \(TerminalText.bytes(bytes)), \(TerminalText.bytes(speed))/s"]
        } plainProgress: {
            speed > 0 ? "station: \(TerminalText.bytes(bytes)), \(files) files, \(TerminalText.bytes(speed))/s over \(total.count) devices" : nil
        }
    }
}
