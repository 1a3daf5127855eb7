import AIBuds
import AIBudsLog
import CFFmpeg
import CFFmpegLog

/// FFmpeg's own messages (libx264's banner, a demuxer's "moov atom not found") go through the
/// SDK's log (`AIBudsSDK.logger`, category `ffmpeg`) instead of the terminal: FFmpeg's errors are
/// logged at `info` and its warnings at `debug`, because every failure it reports also reaches the
/// caller as a typed error. Process-wide in FFmpeg; installed once, before the first file is opened.
public enum FFmpegLogging {
    /// Installs the bridge (FFmpeg's level: warnings and worse); later calls do nothing.
    public static func install() { _ = installed }

    private static let installed: Void = {
        aibuds_ffmpeg_log_route({ level, line in
            guard let line else { return }
            let sdkLevel = FFmpegLogging.level(level)
            let logger = AIBudsSDK.logger
            if logger.isLogging(sdkLevel) { logger.log(sdkLevel, "ffmpeg", String(cString: line)) }
        }, AV_LOG_WARNING)
    }()

    /// The SDK level of an FFmpeg level (`AV_LOG_*`).
    static func level(_ ffmpeg: Int32) -> LogLevel {
        ffmpeg <= AV_LOG_ERROR ? .info : ffmpeg <= AV_LOG_WARNING ? .debug : .trace
    }
}
