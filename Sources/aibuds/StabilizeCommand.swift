import AIBudsSync
import AIBuds
import AIBudsStabilization
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `aibuds stabilize`: gyro-based stabilization of one video file with its six-axis log and lens
/// profile, with progress on a terminal; Ctrl-C stops it and removes the partial output.
struct StabilizeCommand: CLICommand {
    static let path = ["stabilize"]
    static let abstract = "Stabilize a video with its gyro log (.gcsv) and lens profile."
    static let help = """
        usage: aibuds stabilize VIDEO [--gyro FILE.gcsv] [--lens PROFILE.json] [-o OUT]
                                [--smoothness S | --time-constant T | --fixed] [--horizon-lock]
                                [--max-zoom Z] [--readout-ms MS] [--no-sync] [--preset P] [--crf N] [--json]

        Writes a stabilized copy of VIDEO (MP4 or MOV, H.264 or HEVC): the camera's rotation from
        the gyro log is smoothed, each frame (each row, for a rolling shutter) is turned back onto
        the smooth path, the lens distortion is removed and the picture zoomed just enough that no
        border shows. Audio is copied untouched; frame count, timestamps and rotation are kept.

        options:
          --gyro FILE       the six-axis log (default: VIDEO.gcsv, else VIDEO without extension .gcsv)
          --lens FILE       a Gyroflow lens profile (default: the AIBuds glasses' built-in profile)
          -o, --output OUT  where to write (default: NAME.stabilized.EXT beside VIDEO)
          --smoothness S    0 to 1 (default 0.5): how long the adaptive smoother's memory is
          --time-constant T a plain smoother with this time constant in seconds instead
          --fixed           a camera that does not move (the clip's mean orientation)
          --horizon-lock    keep the horizon level (uses the accelerometer)
          --max-zoom Z      the largest zoom (default 2.5)
          --readout-ms MS   the rolling-shutter readout time (default: from the log or the profile)
          --no-sync         trust the log's time origin (by default its offset to the video is
                            checked against the image motion of the first 2 s and corrected)
          --preset P        x264/x265 preset (default veryfast)
          --crf N           constant rate factor, 0 to 51 (default 20)
          --json            print one JSON document instead of progress
        """

    var video: String
    var gyro: String?
    var lens: String?
    var output: String?
    var smoothness: Double?
    var timeConstant: Double?
    var fixed: Bool
    var horizonLock: Bool
    var maximumZoom: Double
    var readoutMs: Double?
    var noSync: Bool
    var preset: String
    var crf: Int
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        gyro = try arguments.option("--gyro")
        lens = try arguments.option("--lens")
        output = try arguments.option("--output") ?? arguments.option("-o")
        smoothness = try arguments.number("--smoothness")
        timeConstant = try arguments.number("--time-constant")
        fixed = arguments.flag("--fixed")
        horizonLock = arguments.flag("--horizon-lock")
        maximumZoom = try arguments.number("--max-zoom") ?? 2.5
        readoutMs = try arguments.number("--readout-ms")
        noSync = arguments.flag("--no-sync")
        preset = try arguments.option("--preset") ?? "veryfast"
        crf = try arguments.number("--crf") ?? 20
        json = arguments.flag("--json")
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else { throw CommandFailure.usage("stabilize takes one VIDEO") }
        video = positionals[0]
    }

    func validate() throws {
        if [smoothness != nil, timeConstant != nil, fixed].filter({ $0 }).count > 1 {
            throw CommandFailure.usage("give one of --smoothness, --time-constant and --fixed")
        }
        if let smoothness, !(0...1).contains(smoothness) { throw CommandFailure.usage("--smoothness takes a number from 0 to 1") }
        if let timeConstant, !(timeConstant > 0 && timeConstant <= 60) { throw CommandFailure.usage("--time-constant takes seconds from 0 to 60") }
        if !(1...8).contains(maximumZoom) { throw CommandFailure.usage("--max-zoom takes a number from 1 to 8") }
        if let readoutMs, !(0..<1000).contains(readoutMs) { throw CommandFailure.usage("--readout-ms takes 0 to 999") }
        if !EncoderSettings.presets.contains(preset) {
            throw CommandFailure.usage("--preset takes one of \(EncoderSettings.presets.joined(separator: ", "))")
        }
        if !(0...51).contains(crf) { throw CommandFailure.usage("--crf takes a number from 0 to 51") }
    }

    var settings: StabilizationSettings {
        var smoothing = SmoothingMode.adaptive(smoothness: smoothness ?? 0.5)
        if let timeConstant { smoothing = .timeConstant(timeConstant) }
        if fixed { smoothing = .fixed }
        return StabilizationSettings(
            smoothing: smoothing, horizonLock: horizonLock, maximumZoom: maximumZoom, readoutTime: readoutMs.map { $0 / 1000 },
            encoder: EncoderSettings(preset: preset, crf: crf), searchesTimeOffset: !noSync)
    }

    func run() async throws -> ExitCode {
        let input = URL(fileURLWithPath: video).standardizedFileURL
        guard FileManager.default.isReadableFile(atPath: input.path) else { throw CommandFailure.failure("cannot read \(video)") }
        let gyroURL = try sixAxisLog(for: input)
        let log: GyroLog
        let profile: LensProfile
        do {
            log = try GyroLogParser.parse(contentsOf: gyroURL)
            profile = try lens.map { try LensProfileParser.parse(contentsOf: URL(fileURLWithPath: $0)) } ?? .aibudsGlasses
        } catch {
            throw CommandFailure.failure(String(describing: error))
        }
        let target = output.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? StabilizedName.beside(input)
        if FileManager.default.fileExists(atPath: target.path) { throw CommandFailure.failure("\(target.path) exists; not overwriting it") }

        let view = StabilizeProgressView(enabled: !json && isatty(STDERR_FILENO) == 1, name: input.lastPathComponent)
        let started = ContinuousClock.now
        let work = Task { [settings] in
            try await runOnOwnThread(name: "aibuds.stabilize", stackSize: 8 << 20) { cancel in
                try GyroStabilizer(settings: settings).stabilize(
                    input: input, log: log, profile: profile, output: target, shouldStop: { cancel.isRaised }, progress: view.show)
            }
        }
        let interrupt = MediaInterrupt { work.cancel() }
        defer { interrupt.remove() }
        let report: GyroStabilizer.Report
        do {
            report = try await work.value
        } catch is CancellationError {
            view.finish()
            CLI.printError("stopped; no output written")
            return .interrupted
        } catch {
            view.finish()
            throw CommandFailure.failure("stabilizing \(input.lastPathComponent) failed: \(error)")
        }
        view.finish()
        let seconds = (ContinuousClock.now - started).seconds
        if json {
            try DeviceCommandSupport.printJSON(
                StabilizeReport(
                    input: input.path, output: target.path, frames: report.frames, seconds: seconds,
                    minimumZoom: report.zoomRange.lowerBound, maximumZoom: report.zoomRange.upperBound,
                    timeOffset: report.appliedOffset, syncSimilarity: report.timeOffset?.similarity))
        } else {
            CLI.say(String(format: "Stabilized %@ -> %@ (%d frames, zoom %.2f–%.2f) in %.1f s", input.lastPathComponent, target.path,
                report.frames, report.zoomRange.lowerBound, report.zoomRange.upperBound, seconds))
        }
        return .ok
    }

    /// `--gyro`, or the sidecar beside the video.
    private func sixAxisLog(for input: URL) throws -> URL {
        if let gyro { return URL(fileURLWithPath: gyro) }
        for candidate in [input.appendingPathExtension("gcsv"), input.deletingPathExtension().appendingPathExtension("gcsv")]
        where FileManager.default.fileExists(atPath: candidate.path) {
            return candidate
        }
        throw CommandFailure.usage("no six-axis log beside \(video); give --gyro FILE.gcsv")
    }
}

/// The `--json` document of `aibuds stabilize`.
struct StabilizeReport: Encodable {
    var input: String
    var output: String
    var frames: Int
    var seconds: Double
    var minimumZoom: Double
    var maximumZoom: Double
    /// Seconds subtracted from the log's times (0: the log was right or the search was off).
    var timeOffset: Double
    /// How well the image motion matched the gyro at that offset (absent with --no-sync).
    var syncSimilarity: Double?
}

/// `NAME.stabilized.EXT` beside a video.
enum StabilizedName {
    /// The default output for `input`.
    static func beside(_ input: URL) -> URL {
        let ext = input.pathExtension.isEmpty ? "mp4" : input.pathExtension
        return input.deletingPathExtension().appendingPathExtension("stabilized").appendingPathExtension(ext)
    }
}
