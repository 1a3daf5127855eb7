import AIBudsSMPClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `aibuds firmware upload`: sends an MCUboot image to a device's upload slot, optionally tests or
/// confirms it and resets the device.
struct FirmwareUploadCommand: CLICommand {
    static let path = ["firmware", "upload"]
    static let abstract = "Upload an MCUboot firmware image (pipelined, resumed after drops)."
    static let help = """
        usage: aibuds firmware upload --device D FILE [--image N] [--test | --confirm] [--reset]
                                      [--window N]

        Checks FILE as an MCUboot image (header, TLVs, SHA-256), uploads it to the secondary slot
        of image N with several chunks in flight, going on from the device's offset after a drop,
        and prints the time and speed (a progress bar on a terminal). Then:
          --test             marks it for one test boot; with --reset, resets the device, waits for
                             it, and confirms the new image if it runs (exit 1 if it reverted)
          --confirm          makes it permanent without a test boot (dangerous: no way back)
          --reset            resets the device afterwards

        options:
        \(Firmware.deviceHelp)
          --image N          0 the main firmware (default), 1 the camera's (glasses)
          --window N         chunks in flight (default the client's; 1 is stop-and-wait)
        """

    let device: String
    let file: String
    let image: Int
    let test: Bool
    let confirm: Bool
    let reset: Bool
    let window: Int?

    init(_ arguments: inout Arguments) throws {
        device = try arguments.required("--device")
        image = try arguments.number("--image") ?? 0
        window = try arguments.number("--window")
        test = arguments.flag("--test")
        confirm = arguments.flag("--confirm")
        reset = arguments.flag("--reset")
        let words = try arguments.positionals()
        guard words.count == 1 else { throw CommandFailure.usage("give one image file") }
        file = words[0]
    }

    func validate() throws {
        guard (0...1).contains(image) else { throw CommandFailure.usage("--image must be 0 or 1") }
        if test && confirm { throw CommandFailure.usage("give --test or --confirm, not both") }
        if let window, !(1...128).contains(window) { throw CommandFailure.usage("--window must be 1 to 128") }
    }

    func run() async throws -> ExitCode {
        let image: SMPFirmwareImage
        do { image = try SMPFirmwareImage(path: file) } catch { throw Firmware.failure(error) }
        let bar = ProgressBar(enabled: isatty(2) == 1)
        return try await Firmware.withClient(device) { client in
            let updater = SMPFirmwareUpdater(client: client)
            let clock = ContinuousClock()
            let start = clock.now
            let result = try await updater.upload(image, image: self.image, window: window) { bar.show($0, since: start) }
            let seconds = (clock.now - start).seconds
            bar.finish()
            let sent = result.interruptions == 0 ? result.size - result.resumedFrom : result.size
            var note = ""
            if result.interruptions > 0 { note = ", went on after \(result.interruptions) drop(s)" }
            if result.interruptions == 0 && result.resumedFrom > 0 { note = ", resumed from offset \(result.resumedFrom)" }
            CLI.say(String(format: "uploaded %d bytes to image %d in %.2f s (%.0f B/s)", result.size, self.image, seconds,
                           Double(sent) / max(seconds, 1e-9)) + note)
            CLI.say("version \(image.version), hash \(image.hash.map { String(format: "%02x", $0) }.joined())")
            if test && reset {
                switch try await updater.activate(hash: image.hash, image: self.image) {
                case .confirmed(let version):
                    CLI.say("image \(self.image) now runs \(version), confirmed")
                    return .ok
                case .reverted(let running):
                    CLI.printError("the device reverted: image \(self.image) runs \(running), not \(image.version)")
                    return .failure
                }
            }
            if test { try await client.testImage(hash: image.hash) }
            if confirm { try await client.confirmImage(hash: image.hash) }
            if reset {
                do { try await client.reset() } catch let error as SMPError where error.code == .timeout {}
                try await updater.waitForDevice()
                let running = try await client.imageState().first { $0.imageNumber == UInt64(self.image) && $0.isActive }
                CLI.say("image \(self.image) runs \(running?.version ?? "?") after the reset")
            }
            return .ok
        }
    }
}

/// A one-line progress bar with speed on standard error.
final class ProgressBar: @unchecked Sendable {
    // Used from the one task that runs the upload.
    private let enabled: Bool
    private var lastDraw = ContinuousClock.now - .seconds(1)

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: SMPTransferProgress, since start: ContinuousClock.Instant) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(100) || progress.completed == progress.total else { return }
        lastDraw = now
        let fraction = Double(progress.completed) / Double(max(progress.total, 1))
        let filled = Int(fraction * 30)
        let rate = Double(progress.completed) / max((now - start).seconds, 1e-9)
        let line = String(format: "\r[%@%@] %5.1f%%  %7.1f KB/s", String(repeating: "#", count: filled),
                          String(repeating: " ", count: 30 - filled), 100 * fraction, rate / 1000)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
