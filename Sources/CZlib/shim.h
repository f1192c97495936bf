// The system's zlib, for Publish's gzip and zip writers (deflate and crc32).
#include <zlib.h>
