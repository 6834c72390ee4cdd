// Static inline wrappers for the parts of libedit Swift cannot call: the variadic
// el_set, el_get and history, and the C stdin/stdout/stderr globals.
#ifndef NAVSTACK_CEDITLINE_SHIM_H
#define NAVSTACK_CEDITLINE_SHIM_H

#include <errno.h>
#include <histedit.h>
#include <poll.h>
#include <unistd.h>
#include <wchar.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef char *(*ns_prompt_fn)(EditLine *);
typedef unsigned char (*ns_command_fn)(EditLine *, int);

static inline EditLine *ns_el_init(const char *prog) {
    return el_init(prog, stdin, stdout, stderr);
}

static inline int ns_el_set_prompt(EditLine *el, ns_prompt_fn fn) {
    return el_set(el, EL_PROMPT, fn);
}

static inline int ns_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline int ns_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}

static inline int ns_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}

static inline int ns_el_add_function(EditLine *el, const char *name, const char *help, ns_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

static inline int ns_el_bind(EditLine *el, const char *key, const char *name) {
    return el_set(el, EL_BIND, key, name, NULL);
}

static inline History *ns_history_init(int size) {
    History *h = history_init();
    if (h) {
        HistEvent ev;
        history(h, &ev, H_SETSIZE, size);
        history(h, &ev, H_SETUNIQUE, 1);
    }
    return h;
}

static inline int ns_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}

static inline int ns_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}

/// The number of entries saved, or -1.
static inline int ns_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}

/// The text before the cursor, copied into buf (NUL-terminated); its length.
static inline int ns_el_line_before_cursor(EditLine *el, char *buf, int size) {
    const LineInfo *li = el_line(el);
    int n = (int)(li->cursor - li->buffer);
    if (n < 0) n = 0;
    if (n > size - 1) n = size - 1;
    memcpy(buf, li->buffer, (size_t)n);
    buf[n] = 0;
    return n;
}

/// Sets SIGINT to a handler that only records the signal, without SA_RESTART, so a
/// read in el_gets returns with EINTR.
static volatile sig_atomic_t ns_interrupted = 0;

static void ns_on_sigint(int signo) {
    (void)signo;
    ns_interrupted = 1;
}

static inline int ns_install_sigint(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ns_on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    return sigaction(SIGINT, &sa, NULL);
}

static inline int ns_take_interrupt(void) {
    int was = ns_interrupted;
    ns_interrupted = 0;
    return was;
}

/// What runs while the prompt waits (every `ns_idle_milliseconds` without a key): 1 when
/// it printed above the prompt, which is then drawn again with what was typed, the cursor
/// where it was.
typedef int (*ns_idle_fn)(void);
static ns_idle_fn ns_idle = NULL;
static int ns_idle_milliseconds = 200;

/// libedit's character reader, with a wait that runs `ns_idle` between keys. As libedit's
/// own: one UTF-8 character from standard input (a sequence that is not UTF-8 is dropped),
/// 0 at the end of input, -1 with EINTR after Ctrl-C; other signals (a resized window)
/// only wake it.
static int ns_read_char(EditLine *el, wchar_t *character) {
    unsigned char bytes[4];
    int have = 0, need = 1;
    for (;;) {
        if (have == 0 && ns_idle != NULL) {
            struct pollfd input;
            input.fd = 0;
            input.events = POLLIN;
            input.revents = 0;
            int ready = poll(&input, 1, ns_idle_milliseconds);
            if (ready == 0) {
                if (ns_idle()) el_set(el, EL_REFRESH);
                continue;
            }
            if (ready < 0 && errno == EINTR) {
                if (ns_interrupted) {
                    *character = 0;
                    return -1;
                }
                continue;
            }
        }
        ssize_t count = read(0, bytes + have, 1);
        if (count < 0) {
            if (errno == EINTR && !ns_interrupted) continue;
            *character = 0;
            return -1;
        }
        if (count == 0) {
            *character = 0;
            return 0;
        }
        if (have == 0) need = bytes[0] < 0xC0 ? 1 : bytes[0] < 0xE0 ? 2 : bytes[0] < 0xF0 ? 3 : 4;
        have++;
        if (have < need) continue;
        mbstate_t state;
        memset(&state, 0, sizeof state);
        wchar_t decoded;
        size_t used = mbrtowc(&decoded, (const char *)bytes, (size_t)have, &state);
        have = 0;
        if (used == (size_t)-1 || used == (size_t)-2) continue;
        *character = decoded;
        return 1;
    }
}

/// Reads keys with `ns_read_char`, running `idle` while none comes.
static inline int ns_el_set_idle(EditLine *el, ns_idle_fn idle, int milliseconds) {
    ns_idle = idle;
    ns_idle_milliseconds = milliseconds;
    return el_set(el, EL_GETCFN, ns_read_char);
}

#endif
