#include <opusfile.h>
#include <opusenc.h>

/* ope_encoder_ctl is variadic, which Swift does not import. */
static inline int coggopus_set_bitrate(OggOpusEnc *e, opus_int32 v) { return ope_encoder_ctl(e, OPUS_SET_BITRATE(v)); }
