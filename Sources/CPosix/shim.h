// What of the C library Swift does not see or cannot call plainly.
#ifndef NAVSTACK_CPOSIX_SHIM_H
#define NAVSTACK_CPOSIX_SHIM_H

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <pthread.h>
#ifdef __GLIBC__
#include <link.h>
#include <malloc.h>
#include <nss.h>
#include <sys/auxv.h>
#endif

// glibc declares this only with _GNU_SOURCE, which would change the other headers Swift
// shares with its own Glibc module.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);

/// The spawned process starts in `path` (glibc 2.29 and later).
static inline int ns_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

// glibc declares this only with _GNU_SOURCE too.
extern int pipe2(int fds[2], int flags);

/// A pipe whose two ends are not inherited by a spawned process (but where dup2 puts
/// them): `fds[0]` to read, `fds[1]` to write.
static inline int ns_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

// Swift imports glibc's socket types and message flags as enums; these wrappers take and
// give plain ints.

/// A TCP socket that never blocks and is not inherited by a spawned process.
static inline int ns_tcp_socket(int family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

/// `send` that reports a closed peer as EPIPE instead of raising SIGPIPE, which would end
/// the process (Linux has no SO_NOSIGPIPE; MSG_NOSIGNAL is its per-call equivalent).
static inline ssize_t ns_send(int fd, const void *bytes, size_t count) {
    return send(fd, bytes, count, MSG_NOSIGNAL);
}

/// `connect` to an address kept as its bytes (a `sockaddr_in` or `sockaddr_in6`).
static inline int ns_connect(int fd, const void *address, socklen_t length) {
    return connect(fd, (const struct sockaddr *)address, length);
}

#ifdef __GLIBC__
/// Whether this executable is linked statically: its program headers, as the kernel
/// gave them, have no dynamic section.
static inline int ns_is_static_executable(void) {
    const ElfW(Phdr) *headers = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    unsigned long count = getauxval(AT_PHNUM);
    if (headers == NULL) return 0;
    for (unsigned long index = 0; index < count; index++) {
        if (headers[index].p_type == PT_DYNAMIC) return 0;
    }
    return 1;
}
#endif

/// The work of `ns_resolve_hosts_with_builtin_modules`, done once.
static inline void ns_resolve_hosts_with_builtin_modules_once(void) {
#ifdef __GLIBC__
    if (ns_is_static_executable()) __nss_configure_lookup("hosts", "files dns");
#endif
}

/// In a static executable, has the C library look host names up in /etc/hosts and DNS
/// (glibc's `files` and `dns`, built into it since 2.34) whatever /etc/nsswitch.conf
/// names: another module there (mdns, resolve, myhostname, sss…) would be loaded from the
/// host's own glibc, which need not be the one navstack was linked with (the static
/// link's warning about getaddrinfo). Go's own resolver reads the same two sources. Does
/// nothing in a dynamically linked executable, which loads the modules as any program
/// does. Called before each lookup; it takes effect at the first.
static inline void ns_resolve_hosts_with_builtin_modules(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ns_resolve_hosts_with_builtin_modules_once);
}

/// The addresses of `host` for a TCP connection to `port`, of either family, as the list
/// `getaddrinfo` makes (freed with `freeaddrinfo`); NULL when it fails. `numeric` when
/// the host is an address, so that no resolver is asked.
static inline struct addrinfo *ns_getaddrinfo_tcp(const char *host, const char *port, int numeric) {
    struct addrinfo hints = {0};
    struct addrinfo *result = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_TCP;
    hints.ai_flags = AI_NUMERICSERV | (numeric ? AI_NUMERICHOST : 0);
    return getaddrinfo(host, port, &hints, &result) == 0 ? result : NULL;
}

/// Memory freed at the top of the heap stays the process's up to `bytes`, rather than
/// going back to the kernel once past 128 KiB; 0 where the C library has no such setting.
static inline int ns_keep_freed_memory(int bytes) {
#ifdef __GLIBC__
    return mallopt(M_TRIM_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

/// Ctrl-C and SIGTERM only recorded (without SA_RESTART, so a wait returns with EINTR),
/// for a loop that ends cleanly when asked to: `navstack watch`.
static volatile sig_atomic_t ns_stop_requested = 0;

static void ns_on_stop(int signo) {
    (void)signo;
    ns_stop_requested = 1;
}

static inline int ns_install_stop_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ns_on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    return sigaction(SIGINT, &sa, NULL) | sigaction(SIGTERM, &sa, NULL);
}

static inline int ns_stop_was_requested(void) {
    return ns_stop_requested;
}

#endif
