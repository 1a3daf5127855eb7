import CFFmpeg

/// FFmpeg's own console messages (libx264's banner, decoder notices): errors only, so that a
/// command's output stays its own. Process-wide in FFmpeg; set once, before the first file is opened.
enum FFmpegLogging {
    /// Sets FFmpeg's log level to errors; later calls do nothing.
    static let quiet: Void = { av_log_set_level(AV_LOG_ERROR) }()
}
