#ifndef SLIPWAY_CLIBGIT2_SHIM_H
#define SLIPWAY_CLIBGIT2_SHIM_H
#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/mempack.h>
#include <zlib.h>

/*
 * git_libgit2_opts() is variadic, and Swift cannot call C variadic functions; these wrappers
 * give the options Slipway needs fixed signatures. Only libgit2 1.5 API is used here, so the
 * shim builds against Debian's 1.5 and Homebrew's 1.9 alike.
 */

/* Turns libgit2's check that a repository belongs to the current user on (1) or off (0).
 * Returns 0 on success. */
static inline int slipway_git_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

/* Turns libgit2's hashing of every object it reads, to check it against its id, on (1) or off
 * (0). Returns 0 on success. */
static inline int slipway_git_set_strict_hash_verification(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}

/* Turns libgit2's check that the objects a new index entry, tree or commit names exist on (1)
 * or off (0). Returns 0 on success. */
static inline int slipway_git_set_strict_object_creation(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, enabled);
}

/* Reads an object's raw data from the object database's backends (loose objects, packs,
 * alternates: the order git_odb_read tries them in), bypassing the repository's object cache:
 * a history walk reads each commit once, and storing ten thousand of them in the cache cost
 * more than reading them. On success returns 0, with *data to free with
 * git_odb_backend_data_free(*backend, *data). Returns GIT_ENOTFOUND when no backend has the
 * object (git_odb_read also re-scans for new packs then), or a backend's error. */
static inline int slipway_git_odb_read_uncached(void **data, size_t *length, git_object_t *type,
                                                git_odb_backend **backend, git_odb *odb, const git_oid *id) {
    size_t count = git_odb_num_backends(odb);
    for (size_t position = 0; position < count; position++) {
        git_odb_backend *candidate = NULL;
        if (git_odb_get_backend(&candidate, odb, position) < 0 || candidate == NULL || candidate->read == NULL)
            continue;
        int error = candidate->read(data, length, type, candidate, id);
        if (error == GIT_ENOTFOUND || error == GIT_PASSTHROUGH)
            continue;
        if (error == 0)
            *backend = candidate;
        return error;
    }
    return GIT_ENOTFOUND;
}

/* inflateInit() is a macro, which Swift does not import. Returns Z_OK on success. */
static inline int slipway_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}

#endif
