/* WebRTC's voice activity detector (the GMM VAD of common_audio/vad), as Debian's
 * libwebrtc-audio-processing exports it. Debian installs no header for it, so its five C
 * functions are declared here as WebRTC documents them. */
#include <stddef.h>
#include <stdint.h>

typedef struct WebRtcVadInst VadInst;

/* Allocates a detector (NULL when out of memory); free it with WebRtcVad_Free. */
VadInst *WebRtcVad_Create(void);
void WebRtcVad_Free(VadInst *handle);
/* 0 on success, -1 on error. */
int WebRtcVad_Init(VadInst *handle);
/* Aggressiveness 0 (quality) to 3 (very aggressive); 0 on success, -1 on error. */
int WebRtcVad_set_mode(VadInst *handle, int mode);
/* 1 speech, 0 non-speech, -1 error; fs 8000/16000/32000/48000 Hz, frames of 10, 20 or 30 ms. */
int WebRtcVad_Process(VadInst *handle, int fs, const int16_t *audio_frame, size_t frame_length);
