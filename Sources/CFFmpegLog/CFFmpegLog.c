#include "CFFmpegLog.h"

#include <libavutil/avutil.h>
#include <stdatomic.h>
#include <string.h>

static _Atomic(aibuds_ffmpeg_line_handler) line_handler;

static void forward(void *context, int level, const char *format, va_list arguments) {
    if (level > av_log_get_level()) return;
    aibuds_ffmpeg_line_handler handler = atomic_load(&line_handler);
    if (!handler) return;
    char line[1024];
    int print_prefix = 1;
    if (av_log_format_line2(context, level, format, arguments, line, sizeof line, &print_prefix) < 0) return;
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
    if (length > 0) handler(level, line);
}

void aibuds_ffmpeg_log_route(aibuds_ffmpeg_line_handler handler, int max_level) {
    atomic_store(&line_handler, handler);
    av_log_set_level(max_level);
    av_log_set_callback(forward);
}
