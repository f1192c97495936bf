// The system's zlib, for Publish's gzip and zip writers (deflate and crc32).
#include <zlib.h>

/* inflateInit2() is a macro too: a raw deflate stream (no zlib header), as zip entries hold. */
static inline int slipway_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
