#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef void *(*init_fn)(void);
typedef void (*cleanup_fn)(void *);
typedef int (*setopt_fn)(void *, int, ...);
typedef int (*perform_fn)(void *);
typedef int (*getinfo_fn)(void *, int, ...);
typedef const char *(*strerror_fn)(int);
typedef void *(*slist_append_fn)(void *, const char *);
typedef void (*slist_free_fn)(void *);
typedef int (*global_init_fn)(long);

static struct {
    init_fn init;
    cleanup_fn cleanup;
    setopt_fn setopt;
    perform_fn perform;
    getinfo_fn getinfo;
    strerror_fn strerror;
    slist_append_fn slist_append;
    slist_free_fn slist_free_all;
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int load_status = -1;

static void load(void) {
    // The development symlink (libcurl.so) is often absent; the versioned names are what the
    // runtime packages install (OpenSSL flavour first, then GnuTLS, as Debian names them).
    static const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", "libcurl.4.dylib"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !library; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "libcurl could not be loaded (tried libcurl.so.4, libcurl-gnutls.so.4, libcurl.so): %s",
                 dlerror());
        return;
    }
    curl.init = (init_fn)dlsym(library, "curl_easy_init");
    curl.cleanup = (cleanup_fn)dlsym(library, "curl_easy_cleanup");
    curl.setopt = (setopt_fn)dlsym(library, "curl_easy_setopt");
    curl.perform = (perform_fn)dlsym(library, "curl_easy_perform");
    curl.getinfo = (getinfo_fn)dlsym(library, "curl_easy_getinfo");
    curl.strerror = (strerror_fn)dlsym(library, "curl_easy_strerror");
    curl.slist_append = (slist_append_fn)dlsym(library, "curl_slist_append");
    curl.slist_free_all = (slist_free_fn)dlsym(library, "curl_slist_free_all");
    global_init_fn global_init = (global_init_fn)dlsym(library, "curl_global_init");
    if (!curl.init || !curl.cleanup || !curl.setopt || !curl.perform || !curl.getinfo || !curl.strerror
        || !curl.slist_append || !curl.slist_free_all || !global_init) {
        snprintf(load_error, sizeof load_error, "the libcurl found lacks the easy interface (%s)", dlerror());
        return;
    }
    // curl_global_init is not thread-safe in older libcurl; pthread_once makes this the only call.
    if (global_init(3 /* CURL_GLOBAL_ALL */) != 0) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        return;
    }
    load_status = 0;
}

int ccurl_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (load_status != 0 && error && error_size > 0) {
        snprintf(error, error_size, "%s", load_error);
    }
    return load_status;
}

void *ccurl_easy_init(void) { return curl.init(); }
void ccurl_easy_cleanup(void *handle) { curl.cleanup(handle); }
int ccurl_setopt_long(void *handle, int option, long value) { return curl.setopt(handle, option, value); }
int ccurl_setopt_pointer(void *handle, int option, const void *value) { return curl.setopt(handle, option, value); }
int ccurl_setopt_offset(void *handle, int option, int64_t value) { return curl.setopt(handle, option, (long long)value); }
int ccurl_setopt_data_callback(void *handle, int option, ccurl_data_callback callback) {
    return curl.setopt(handle, option, callback);
}
int ccurl_setopt_progress_callback(void *handle, int option, ccurl_progress_callback callback) {
    return curl.setopt(handle, option, callback);
}
int ccurl_perform(void *handle) { return curl.perform(handle); }
int ccurl_getinfo_long(void *handle, int info, long *value) { return curl.getinfo(handle, info, value); }
const char *ccurl_strerror(int code) { return curl.strerror(code); }
void *ccurl_slist_append(void *list, const char *text) { return curl.slist_append(list, text); }
void ccurl_slist_free_all(void *list) { curl.slist_free_all(list); }
