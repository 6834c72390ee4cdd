// Static inline wrappers for the parts of libedit Swift cannot call: the variadic
// el_set, el_get and history, and the C stdin/stdout/stderr globals.
#ifndef NAVSTACK_CEDITLINE_SHIM_H
#define NAVSTACK_CEDITLINE_SHIM_H

#include <histedit.h>
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

#endif
