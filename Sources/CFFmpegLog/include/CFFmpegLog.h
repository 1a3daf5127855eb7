#ifndef CFFMPEGLOG_H
#define CFFMPEGLOG_H

/// Receives one formatted FFmpeg message (its context prefix included, no trailing newline).
typedef void (*aibuds_ffmpeg_line_handler)(int level, const char *line);

/// Routes FFmpeg's log (av_log_set_callback) to `handler` for messages at `max_level` or more
/// severe (FFmpeg's AV_LOG_* scale); nothing of FFmpeg's reaches stderr afterwards. Swift cannot
/// implement FFmpeg's callback itself: it takes a va_list.
void aibuds_ffmpeg_log_route(aibuds_ffmpeg_line_handler handler, int max_level);

#endif
