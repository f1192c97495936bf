#ifndef SLIPWAY_CLIBGIT2_SHIM_H
#define SLIPWAY_CLIBGIT2_SHIM_H
#include <git2.h>

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

#endif
