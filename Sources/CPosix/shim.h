// What of the C library Swift does not see: glibc declares these only with _GNU_SOURCE,
// which would change the other headers Swift shares with its own Glibc module.
#ifndef NAVSTACK_CPOSIX_SHIM_H
#define NAVSTACK_CPOSIX_SHIM_H

#include <spawn.h>

extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);

/// The spawned process starts in `path` (glibc 2.29 and later).
static inline int ns_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

#endif
