// libcurl, loaded at run time. Slipway's Linux binary does not link libcurl (nor Foundation's
// URLSession, which would load it and some thirty libraries behind it at every start): the first
// HTTP request loads it with dlopen. Only the few easy-interface calls Slipway uses are exposed,
// with fixed (non-variadic) signatures; the option numbers are libcurl's stable ABI values.
#ifndef SLIPWAY_CCURL_H
#define SLIPWAY_CCURL_H

#include <stddef.h>
#include <stdint.h>

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *context);
typedef int (*ccurl_progress_callback)(void *context, int64_t download_total, int64_t downloaded,
                                       int64_t upload_total, int64_t uploaded);

enum {
    CCURL_OPT_WRITEDATA = 10001,
    CCURL_OPT_URL = 10002,
    CCURL_OPT_READDATA = 10009,
    CCURL_OPT_ERRORBUFFER = 10010,
    CCURL_OPT_WRITEFUNCTION = 20011,
    CCURL_OPT_READFUNCTION = 20012,
    CCURL_OPT_LOW_SPEED_LIMIT = 19,
    CCURL_OPT_LOW_SPEED_TIME = 20,
    CCURL_OPT_HTTPHEADER = 10023,
    CCURL_OPT_HEADERDATA = 10029,
    CCURL_OPT_CUSTOMREQUEST = 10036,
    CCURL_OPT_NOPROGRESS = 43,
    CCURL_OPT_NOBODY = 44,
    CCURL_OPT_UPLOAD = 46,
    CCURL_OPT_FOLLOWLOCATION = 52,
    CCURL_OPT_XFERINFODATA = 10057,
    CCURL_OPT_MAXREDIRS = 68,
    CCURL_OPT_HEADERFUNCTION = 20079,
    CCURL_OPT_NOSIGNAL = 99,
    CCURL_OPT_INFILESIZE_LARGE = 30115,
    CCURL_OPT_CONNECTTIMEOUT_MS = 156,
    CCURL_OPT_XFERINFOFUNCTION = 20219,
    CCURL_OPT_HTTP_VERSION = 84,
    CCURL_OPT_CAINFO = 10065,
};

enum {
    /// CURL_HTTP_VERSION_2TLS: HTTP/2 for https:// (negotiated through ALPN), HTTP/1.1 otherwise.
    CCURL_HTTP_VERSION_2TLS = 4,
};

enum {
    CCURL_INFO_RESPONSE_CODE = 0x200000 + 2,
};

enum {
    CCURL_E_OK = 0,
    CCURL_E_WRITE_ERROR = 23,
    CCURL_E_OPERATION_TIMEDOUT = 28,
    CCURL_E_ABORTED_BY_CALLBACK = 42,
    CCURL_E_GOT_NOTHING = 52,
    CCURL_E_SEND_ERROR = 55,
    CCURL_E_RECV_ERROR = 56,
    CCURL_ERROR_SIZE = 256,
};

/// Returned by a read callback to abort the transfer.
#define CCURL_READFUNC_ABORT 0x10000000

/// Loads libcurl (once; later calls return the first answer). Returns 0, or -1 with a message
/// naming the libraries tried in `error`.
int ccurl_load(char *error, size_t error_size);

void *ccurl_easy_init(void);
void ccurl_easy_cleanup(void *handle);
int ccurl_setopt_long(void *handle, int option, long value);
int ccurl_setopt_pointer(void *handle, int option, const void *value);
int ccurl_setopt_offset(void *handle, int option, int64_t value);
int ccurl_setopt_data_callback(void *handle, int option, ccurl_data_callback callback);
int ccurl_setopt_progress_callback(void *handle, int option, ccurl_progress_callback callback);
int ccurl_perform(void *handle);
int ccurl_getinfo_long(void *handle, int info, long *value);
const char *ccurl_strerror(int code);
void *ccurl_slist_append(void *list, const char *text);
void ccurl_slist_free_all(void *list);

#endif
