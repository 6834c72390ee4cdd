#!/usr/bin/env bash
# End-to-end test of navstack's interactive mode (libedit line editing, Tab completion,
# Ctrl-C, Ctrl-D, history), driven through a detached tmux session.
#
# Usage: Tests/Interactive/tmux-test.sh BINARY
#
# Prints one `ok - …` / `not ok - …` line a check, then `N passed, N failed`; exits 1
# when any check failed, 0 otherwise (2 on bad usage or missing tmux).
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 BINARY" >&2
    exit 2
fi
if [[ ! -x $1 || -d $1 ]]; then
    echo "$0: not an executable file: $1" >&2
    exit 2
fi
if ! command -v tmux >/dev/null 2>&1; then
    echo "$0: tmux is not installed" >&2
    exit 2
fi
BINARY=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NAME=$(basename "$BINARY")

# tmux itself must treat the pane's bytes as UTF-8 (send-keys -l, capture-pane).
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE

SOCKET=navstack-test-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/navstack-tmux-test.XXXXXX")
STATE=$WORK/state
DATA=$WORK/data
mkdir -p "$STATE" "$DATA"
HISTORY_FILE=$STATE/navstack/history

cleanup() {
    tmux -L "$SOCKET" kill-server >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

WIDTH=100
HEIGHT=40
PASSED=0
FAILED=0
PANE=""     # the tmux target the helpers act on
MARK=0      # absolute line (history + screen) where the current step's output starts

# ---------------------------------------------------------------------------- helpers

# tmux on this test's own server, ignoring any user configuration; -u: UTF-8.
tm() { tmux -L "$SOCKET" -f /dev/null -u "$@"; }

# Starts navstack in a new detached session NAME: fixed size, its own XDG directories,
# and the exit status left readable in the pane.
start_session() {
    local session=$1 command
    printf -v command 'env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_STATE_HOME=%q XDG_DATA_HOME=%q %q --memory; echo "EXIT=$?"; sleep 30' \
        "$STATE" "$DATA" "$BINARY"
    tm new-session -d -s "$session" -x "$WIDTH" -y "$HEIGHT" "$command"
    PANE="$session:0.0"
    MARK=0
}

# send KEY...: tmux key names (Enter, Tab, Up, C-c, C-d, …).
send() { tm send-keys -t "$PANE" "$@"; }

# type TEXT: literal text, no key-name lookup.
type_text() { tm send-keys -t "$PANE" -l -- "$1"; }

pane_format() { tm display-message -p -t "$PANE" "$1"; }

# Remembers where the cursor is; `output` and `wait_for` then look only at what the
# pane shows from this line on, so text left over from earlier steps cannot match.
mark() {
    local values
    values=$(pane_format '#{history_size} #{cursor_y}')
    MARK=$(( ${values% *} + ${values#* } ))
}

# The pane from the mark on, wrapped lines joined.
output() {
    local history start
    history=$(pane_format '#{history_size}')
    start=$(( MARK - history ))
    tm capture-pane -p -J -t "$PANE" -S "$start"
}

# The whole visible pane, for failure reports.
dump_pane() {
    echo "# --- pane $PANE (cursor at column $(pane_format '#{cursor_x}'), row $(pane_format '#{cursor_y}')) ---"
    tm capture-pane -p -t "$PANE" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' | sed 's/^/# | /'
    echo "# ---"
}

# wait_for REGEX [TIMEOUT]: polls the pane (from the mark on) every 0.1 s until an
# extended regex matches one of its lines; on timeout dumps the pane and fails.
wait_for() {
    local regex=$1 timeout=${2:-10} tries
    tries=$(( timeout * 10 ))
    while (( tries-- > 0 )); do
        if output | grep -qE -- "$regex"; then
            return 0
        fi
        sleep 0.1
    done
    echo "# timed out after ${timeout}s waiting for /$regex/"
    dump_pane
    return 1
}

# The text of the line the cursor is on (trailing blanks dropped).
cursor_line() {
    local row
    row=$(pane_format '#{cursor_y}')
    tm capture-pane -p -t "$PANE" -S "$row" -E "$row" | sed 's/[[:space:]]*$//'
}

# line_is TEXT [TIMEOUT]: waits until the cursor's line reads TEXT (trailing blanks
# ignored) and, when TEXT is ASCII, the cursor stands right after it — so `open ` is
# told from `open`, and an empty prompt from one holding text.
line_is() {
    local want=$1 timeout=${2:-10} tries got column
    local trimmed=${want%"${want##*[![:space:]]}"}
    local ascii=1
    LC_ALL=C; [[ $want == *[![:print:]]* ]] && ascii=0; unset LC_ALL
    tries=$(( timeout * 10 ))
    while (( tries-- > 0 )); do
        got=$(cursor_line)
        column=$(pane_format '#{cursor_x}')
        if [[ $got == "$trimmed" ]] && { (( ! ascii )) || (( column == ${#want} )); }; then
            return 0
        fi
        sleep 0.1
    done
    echo "# timed out after ${timeout}s waiting for the cursor line to be '$want'"
    echo "# cursor line is '$got' with the cursor at column $column"
    dump_pane
    return 1
}

# The program is still running in the pane: the pane's shell has a child called like
# the binary, and no `EXIT=` status has been printed.
still_running() {
    local shell_pid
    shell_pid=$(pane_format '#{pane_pid}')
    if ! pgrep -P "$shell_pid" -x "${NAME:0:15}" >/dev/null; then
        echo "# no '$NAME' process under the pane's shell ($shell_pid)"
        dump_pane
        return 1
    fi
    if tm capture-pane -p -t "$PANE" -S - | grep -q '^EXIT='; then
        echo "# the pane shows an exit status"
        dump_pane
        return 1
    fi
}

# check DESCRIPTION COMMAND [ARG...]: runs an assertion and reports it.
check() {
    local description=$1
    shift
    if "$@"; then
        PASSED=$(( PASSED + 1 ))
        echo "ok - $description"
    else
        FAILED=$(( FAILED + 1 ))
        echo "not ok - $description"
    fi
}

# The history file's mode in octal (GNU or BSD stat).
file_mode() { stat -c '%a' "$1" 2>/dev/null || stat -f '%Lp' "$1"; }

# The history file's entries, one a line, with libedit's vis escapes (\040…) decoded.
history_entries() {
    local line
    tail -n +2 "$HISTORY_FILE" | while IFS= read -r line; do printf '%b\n' "$line"; done
}

history_is_v2() { [[ -f $HISTORY_FILE ]] && [[ $(head -n 1 "$HISTORY_FILE") == _HiStOrY_V2_ ]]; }
history_mode_is_600() { [[ -f $HISTORY_FILE ]] && [[ $(file_mode "$HISTORY_FILE") == 600 ]]; }

history_has() {
    local entry entries
    [[ -f $HISTORY_FILE ]] || { echo "# no history file at $HISTORY_FILE"; return 1; }
    entries=$(history_entries)
    for entry in "$@"; do
        if ! grep -qxF -- "$entry" <<<"$entries"; then
            echo "# history has no line '$entry'; it holds:"
            sed 's/^/# | /' "$HISTORY_FILE"
            return 1
        fi
    done
}

UTF8_TITLE='Café ☕ 日本'

# ------------------------------------------------------------------ first run

start_session run1

check "launch shows the login screen" wait_for '^Sign in with your name'
check "launch prompt is 'login> '" line_is 'login> '

mark
type_text 'login ana'; send Enter
check "'login ana' shows My Tasks" wait_for '^My Tasks$'
check "after login the prompt is 'tasks> '" line_is 'tasks> '

mark
type_text 'op'; send Tab
check "'op' + Tab completes to 'open '" line_is 'tasks> open '
type_text '2'; send Enter
check "'open 2' shows the task 'Study SwiftUI'" wait_for '^Title: +Study SwiftUI$'
check "on the task the prompt is 'tasks/2> '" line_is 'tasks/2> '

mark
type_text 'tab a'; send Tab
check "'tab a' + Tab completes to 'tab account '" line_is 'tasks/2> tab account '
send Enter
check "Enter on 'tab account' shows the Account screen" wait_for '^Account · navstack://account$'
check "on Account the prompt is 'account> '" line_is 'account> '

mark
type_text 'go tasks/'; send Tab
check "'go tasks/' + Tab offers the deep link tasks/1" wait_for '(^|[[:space:]])tasks/1([[:space:]]|$)'
check "after listing links the line still reads 'go tasks/'" line_is 'account> go tasks/'

mark
send C-c
check "Ctrl-C prints ^C" wait_for '\^C$'
check "Ctrl-C leaves an empty prompt" line_is 'account> '
check "Ctrl-C keeps navstack running" still_running

mark
type_text 'where'; send Enter
check "'where' prints a navstack:// URL" wait_for '^navstack://account$'

mark
check "before Up the prompt is empty" line_is 'account> '
send Up
check "Up recalls 'where'" line_is 'account> where'
send C-c
check "Ctrl-C clears the recalled line" line_is 'account> '

mark
type_text 'tab tasks'; send Enter
check "'tab tasks' returns to the task tab where it was (tasks/2)" line_is 'tasks/2> '
mark
type_text 'back'; send Enter
check "'back' goes to the list, prompt 'tasks> '" line_is 'tasks> '

mark
type_text "add $UTF8_TITLE"; send Enter
check "UTF-8 input is shown intact on the line" wait_for "^tasks> add $UTF8_TITLE\$"
check "'add $UTF8_TITLE' shows the title intact on the detail screen" wait_for "^Title: +$UTF8_TITLE\$"
check "the new task's prompt is 'tasks/4> '" line_is 'tasks/4> '

mark
send C-d
if check "Ctrl-D on an empty prompt ends navstack with EXIT=0" wait_for '^EXIT=0$' 5; [[ $(tail -c 0 /dev/null; echo "$FAILED") -gt 0 ]] && ! output | grep -q '^EXIT='; then
    # Leave the first run anyway, so the history checks and the second run can go on.
    echo "# Ctrl-D did not end the first run; sending 'quit' to go on"
    send C-u; type_text 'quit'; send Enter
    wait_for '^EXIT=' 5 >/dev/null || true
fi

# ------------------------------------------------------------------ history file

check "the history file exists in libedit's _HiStOrY_V2_ format" history_is_v2
check "the history file has mode 600" history_mode_is_600
check "the history file holds the typed commands" history_has 'login ana' 'open 2' 'where' "add $UTF8_TITLE"

# ------------------------------------------------------------------ second run

start_session run2
check "a second run starts at the login screen" line_is 'login> '
send Up
check "Up in a second run recalls the first run's last line" line_is "login> add $UTF8_TITLE"
send C-u
check "Ctrl-U empties the recalled line" line_is 'login> '

mark
type_text 'frobnicate'; send Enter
check "an unknown command prints 'error: unknown command'" wait_for '^error: unknown command'
check "after an error the prompt is still 'login> '" line_is 'login> '

mark
send C-d
# SPEC: exit status 1 when some command failed — the unknown command above did.
check "Ctrl-D after a failed command ends navstack with EXIT=1" wait_for '^EXIT=1$'

echo "$PASSED passed, $FAILED failed"
(( FAILED == 0 ))
