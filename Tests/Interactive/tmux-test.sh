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

SOCKET_PATH=""  # known once the server runs; tmux leaves the file behind otherwise
cleanup() {
    tmux -L "$SOCKET" kill-server >/dev/null 2>&1 || true
    if [[ -n $SOCKET_PATH && -S $SOCKET_PATH ]]; then rm -f "$SOCKET_PATH"; fi
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

# Starts navstack in a new detached session NAME, in the folder $WORK: fixed size, its
# own XDG directories and store file, and the exit status left readable in the pane.
# start_session NAME [COLUMNS ROWS [ENV…]]: extra ENV entries (NAME=VALUE) are set for navstack.
start_session() {
    local session=$1 columns=${2:-$WIDTH} rows=${3:-$HEIGHT} command extra=""
    shift $(( $# < 3 ? $# : 3 ))
    local entry
    for entry in "$@"; do printf -v extra '%s %q' "$extra" "$entry"; done
    # A store file of its own with the sample tasks (a store in memory keeps no history).
    printf -v command 'env -u LC_ALL -u LC_CTYPE -u NO_COLOR TERM=xterm-256color LANG=C.UTF-8 XDG_STATE_HOME=%q XDG_DATA_HOME=%q%s %q --store %q --sample; echo "EXIT=$?"; sleep 30' \
        "$STATE" "$DATA" "$extra" "$BINARY" "$DATA/$session.sqlite"
    # remain-on-exit: should the pane's shell die (say a Ctrl-C reaches it once navstack
    # is gone), the pane and the server stay, and the checks fail instead of erroring.
    tm new-session -d -s "$session" -c "$WORK" -x "$columns" -y "$rows" "$command" \; \
        set-option -t "$session" remain-on-exit on
    SOCKET_PATH=$(tm display-message -p -t "$session" '#{socket_path}')
    PANE="$session:0.0"
    MARK=0
}

# send KEY...: tmux key names (Enter, Tab, Up, C-c, C-d, …). A key that cannot be sent
# (the pane is gone) is reported; the checks that follow then fail.
send() { tm send-keys -t "$PANE" "$@" || echo "# could not send keys: $*"; }

# type TEXT: literal text, no key-name lookup.
type_text() { tm send-keys -t "$PANE" -l -- "$1" || echo "# could not type: $1"; }

pane_format() { tm display-message -p -t "$PANE" "$1" 2>/dev/null; }

# Remembers where the cursor is; `output` and `wait_for` then look only at what the
# pane shows from this line on, so text left over from earlier steps cannot match.
mark() {
    local values
    values=$(pane_format '#{history_size} #{cursor_y}') || values="0 0"
    MARK=$(( ${values% *} + ${values#* } ))
}

# The pane from the mark on, wrapped lines joined.
output() {
    local history start
    history=$(pane_format '#{history_size}') || return 1
    start=$(( MARK - history ))
    tm capture-pane -p -J -t "$PANE" -S "$start" 2>/dev/null
}

# The whole visible pane, for failure reports.
dump_pane() {
    local text
    if ! text=$(tm capture-pane -p -t "$PANE" 2>/dev/null); then
        echo "# (pane $PANE is gone)"
        return 0
    fi
    echo "# --- pane $PANE (cursor at column $(pane_format '#{cursor_x}'), row $(pane_format '#{cursor_y}')) ---"
    sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' <<<"$text" | sed 's/^/# | /'
    echo "# ---"
}

# The program in the pane has ended: its `EXIT=` line is showing (or the pane is dead
# or gone).
has_exited() {
    local text
    [[ $(pane_format '#{pane_dead}') == 0 ]] || return 0
    text=$(tm capture-pane -p -t "$PANE" -S - 2>/dev/null) || return 0
    grep -q '^EXIT=' <<<"$text"
}

# wait_for REGEX [TIMEOUT]: polls the pane (from the mark on) every 0.1 s until an
# extended regex matches one of its lines; on timeout dumps the pane and fails. Gives up
# at once when navstack has ended and the regex is not waiting for that.
wait_for() {
    local regex=$1 timeout=${2:-10} tries text
    tries=$(( timeout * 10 ))
    while (( tries-- > 0 )); do
        text=$(output)
        if grep -qE -- "$regex" <<<"$text"; then
            return 0
        fi
        if [[ $regex != '^EXIT'* ]] && has_exited; then
            # It may have printed the line and ended between the two looks.
            grep -qE -- "$regex" <<<"$(output)" && return 0
            echo "# navstack ended while waiting for /$regex/"
            dump_pane
            return 1
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
    row=$(pane_format '#{cursor_y}') || return 0
    tm capture-pane -p -t "$PANE" -S "$row" -E "$row" 2>/dev/null | sed 's/[[:space:]]*$//'
}

# line_is TEXT [TIMEOUT]: waits until the cursor's line reads TEXT (trailing blanks
# ignored) and, when TEXT is ASCII, the cursor stands right after it — so `open ` is
# told from `open`, and an empty prompt from one holding text.
line_is() {
    local want=$1 timeout=${2:-10} tries got column
    local trimmed=${want%"${want##*[![:space:]]}"}
    local ascii=1
    [[ -n $(printf '%s' "$want" | LC_ALL=C tr -d ' -~') ]] && ascii=0
    tries=$(( timeout * 10 ))
    while (( tries-- > 0 )); do
        got=$(cursor_line)
        column=$(pane_format '#{cursor_x}')
        if [[ $got == "$trimmed" ]] && { (( ! ascii )) || (( column == ${#want} )); }; then
            return 0
        fi
        if has_exited; then
            echo "# navstack ended while waiting for the cursor line to be '$want'"
            dump_pane
            return 1
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
    shell_pid=$(pane_format '#{pane_pid}') || true
    if [[ -z $shell_pid ]] || ! pgrep -P "$shell_pid" -x "${NAME:0:15}" >/dev/null; then
        echo "# no '$NAME' process under the pane's shell ($shell_pid)"
        dump_pane
        return 1
    fi
    if has_exited; then
        echo "# the pane shows an exit status"
        dump_pane
        return 1
    fi
}

# no_line_wider_than N: no line of the output since the mark (wrapped lines joined) is
# wider than N columns.
no_line_wider_than() {
    local limit=$1 line
    while IFS= read -r line; do
        if (( $(printf '%s' "$line" | wc -m) > limit )); then
            echo "# line wider than $limit: '$line'"
            return 1
        fi
    done < <(output)
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

# decode_vis TEXT: undoes libedit's strvis escapes in a history line: `\NNN` (octal
# byte, e.g. `\040` for a space) and `\\`; other escapes are kept as they are.
decode_vis() {
    local rest=$1 decoded="" byte
    while [[ $rest == *\\* ]]; do
        decoded+=${rest%%\\*}
        rest=${rest#*\\}
        if [[ $rest =~ ^[0-7]{3} ]]; then
            printf -v byte "\\${rest:0:3}"
            decoded+=$byte
            rest=${rest:3}
        elif [[ $rest == \\* ]]; then
            decoded+='\'
            rest=${rest:1}
        else
            decoded+='\'
        fi
    done
    printf '%s\n' "$decoded$rest"
}

# The history file's entries, one a line, decoded.
history_entries() {
    local line
    tail -n +2 "$HISTORY_FILE" | while IFS= read -r line; do decode_vis "$line"; done
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
type_text 'tab ac'; send Tab
check "'tab ac' + Tab completes to 'tab account '" line_is 'tasks/2> tab account '
send Enter
check "Enter on 'tab account' shows the Account screen" wait_for '^Account · navstack://account$'
check "on Account the prompt is 'account> '" line_is 'account> '

mark
type_text 'go tasks/'; send Tab
check "'go tasks/' + Tab offers the deep link tasks/1" wait_for '(^|[[:space:]])tasks/1([[:space:]]|$)'
check "after listing links the line still reads 'go tasks/'" line_is 'account> go tasks/'

mark
send C-c
check "Ctrl-C prints ^C after the dropped line" wait_for '^account> go tasks/\^C$'
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
# A resize: libedit redraws, and the next screen is laid out for the new width.
tm resize-window -t run1 -x 60 -y "$HEIGHT"
mark
type_text 'back'; send Enter
check "'back' goes to the list, prompt 'tasks> '" line_is 'tasks> '
check "after a resize to 60 columns the next screen's rule is 60 wide" wait_for '^─{60}$'
check "after a resize no line of the screen is wider than 60" no_line_wider_than 60

mark
type_text "add $UTF8_TITLE"; send Enter
check "UTF-8 input is shown intact on the line" wait_for "^tasks> add $UTF8_TITLE\$"
check "'add $UTF8_TITLE' shows the title intact on the detail screen" wait_for "^Title: +$UTF8_TITLE\$"
check "the new task's prompt is 'tasks/4> '" line_is 'tasks/4> '

mark
send C-d
check "Ctrl-D on an empty prompt ends navstack with EXIT=0" wait_for '^EXIT=0$'
if ! has_exited; then
    # End the first run anyway, so the history checks and the second run can go on.
    # Not by typing `quit` (it would become the history's last line) and not by SIGTERM
    # (libedit re-sends a caught SIGTERM to the whole process group, the pane's shell
    # included): SIGKILL to the pid of the navstack this script started.
    echo "# Ctrl-D did not end the first run; sending it SIGKILL to go on"
    pid=$(pgrep -P "$(pane_format '#{pane_pid}' || echo 0)" -x "${NAME:0:15}" || true)
    if [[ -n $pid ]]; then kill -KILL "$pid"; fi
    wait_for '^EXIT=' >/dev/null || true
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

# ------------------------------------------------------------------ colour and window size

# The visible pane with its escape sequences.
escaped_pane() { tm capture-pane -p -e -t "$PANE" 2>/dev/null; }
title_is_bold() { escaped_pane | grep -q $'\e\\[1mMy Tasks'; }
no_escapes() {
    if escaped_pane | grep -q $'\e\\[[0-9;]*[12]m'; then
        echo "# escape sequences on a NO_COLOR screen:"
        escaped_pane | cat -v | sed 's/^/# | /' | head -5
        return 1
    fi
}
# The whole list screen, from its title to the prompt, is in the visible window.
# The whole list screen is on the terminal at once, title to prompt. Polled for up to 5 s:
# the prompt is drawn a moment after the screen, later on a busy machine.
list_fits() {
    local text tries=50
    while (( tries-- > 0 )); do
        text=$(tm capture-pane -p -t "$PANE")
        grep -qx 'My Tasks' <<<"$text" && grep -q '^tasks> *$' <<<"$text" && grep -q '^Also:' <<<"$text" && return 0
        sleep 0.1
    done
    return 1
}
visible_no_wider_than() {
    local limit=$1 line
    while IFS= read -r line; do
        if (( $(printf '%s' "$line" | wc -m) > limit )); then echo "# wider than $limit: '$line'"; return 1; fi
    done < <(tm capture-pane -p -J -t "$PANE")
}

start_session colour
check "a colour terminal starts at the login screen" line_is 'login> '
type_text 'login ana'; send Enter
check "on a colour terminal the title is bold" wait_for '^My Tasks$'
check "the escape sequences are there" title_is_bold
done_row_is_dim() { escaped_pane | grep -q $'\e\\[2m 3  \\[x\\] Go for a walk'; }
error_is_red() { escaped_pane | grep -q $'\e\\[31merror: unknown command'; }
check "a done row is dimmed" done_row_is_dim
type_text 'frobnicate'; send Enter
check "an error shows" wait_for '^error: unknown command'
check "the error is red" error_is_red
send C-d

start_session plain "$WIDTH" "$HEIGHT" NO_COLOR=1
check "with NO_COLOR the login screen shows" line_is 'login> '
type_text 'login ana'; send Enter
check "with NO_COLOR the list shows" wait_for '^My Tasks$'
check "with NO_COLOR there is no escape sequence" no_escapes
send C-d

start_session small 70 16
check "a 70x16 window starts at the login screen" line_is 'login> '
mark
type_text 'login ana'; send Enter
check "in a 70x16 window the list shows" line_is 'tasks> '
check "in a 70x16 window the whole list screen fits, title to prompt" list_fits
check "in a 70x16 window no line is wider than 70" visible_no_wider_than 70
mark
for title in 'Another task' 'And one more, to push the list past one page'; do
    type_text "add $title"; send Enter
    type_text 'back'; send Enter
done
check "after adding, the list pages instead of scrolling off" wait_for 'page 1 of 2'
check "the paged list still fits the window" list_fits
send C-d

# Failures before any screen: stdout and stderr are the one terminal, and each message
# must reach it before navstack exits.
printf -v launch_failures 'export XDG_STATE_HOME=%q XDG_DATA_HOME=%q; %q --bogus; echo "EXIT=$?"; %q --width 5; echo "EXIT=$?"; %q import /nonexistent; echo "EXIT=$?"; sleep 30' \
    "$STATE" "$DATA" "$BINARY" "$BINARY" "$BINARY"
tm new-session -d -s failures -x "$WIDTH" -y "$HEIGHT" "$launch_failures" \; set-option -t failures remain-on-exit on
PANE="failures:0.0"
MARK=0
check "an unknown option shows its error at a terminal" wait_for "unknown option '--bogus'"
check "an unknown option exits 64" wait_for '^EXIT=64$'
check "a bad --width shows its error at a terminal" wait_for "invalid for '--width'"
check "import of a missing file shows its error at a terminal" wait_for 'import: cannot read /nonexistent'
check "import of a missing file exits 1" wait_for '^EXIT=1$'

# The history file is never followed through a link, and a store in memory keeps no
# history file at all.
# start_plain NAME STATE_DIR ARGS…: navstack with its own XDG_STATE_HOME and ARGS.
start_plain() {
    local session=$1 state=$2 command
    shift 2
    printf -v command 'env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_STATE_HOME=%q XDG_DATA_HOME=%q %q' \
        "$state" "$DATA" "$BINARY"
    local argument
    for argument in "$@"; do printf -v command '%s %q' "$command" "$argument"; done
    tm new-session -d -s "$session" -x "$WIDTH" -y "$HEIGHT" "$command; echo \"EXIT=\$?\"; sleep 30" \; \
        set-option -t "$session" remain-on-exit on
    PANE="$session:0.0"
    MARK=0
}
LINKED=$WORK/linked-state
mkdir -p "$LINKED/navstack"
printf 'not history\n' > "$WORK/elsewhere"
chmod 644 "$WORK/elsewhere"
ln -s "$WORK/elsewhere" "$LINKED/navstack/history"
start_plain linked "$LINKED" --store "$DATA/linked.sqlite" --sample
check "a history file that is a link is reported as not kept" wait_for 'history is not kept'
type_text 'login ana'; send Enter
check "with a linked history file navstack works" wait_for '^My Tasks$'
send C-d
check "with a linked history file Ctrl-D ends with EXIT=0" wait_for '^EXIT=0$'
link_target_untouched() {
    [[ -L $LINKED/navstack/history && $(cat "$WORK/elsewhere") == 'not history' && $(file_mode "$WORK/elsewhere") == 644 ]]
}
check "the link and the file it points to are untouched" link_target_untouched

MEMORY_STATE=$WORK/memory-state
start_plain memory "$MEMORY_STATE" --memory
check "--memory starts at the login screen" line_is 'login> '
type_text 'login ana'; send Enter
check "--memory shows the list" wait_for '^My Tasks$'
send C-d
check "--memory: Ctrl-D ends with EXIT=0" wait_for '^EXIT=0$'
no_memory_history() { [[ ! -e $MEMORY_STATE/navstack/history ]]; }
check "--memory writes no history file" no_memory_history

# A relative XDG_STATE_HOME is invalid (XDG spec): it is ignored, and the history goes
# under $HOME/.local/state instead of a folder relative to wherever navstack started.
RELATIVE_STATE=navstack-relative-state-$$
start_session relative "$WIDTH" "$HEIGHT" XDG_STATE_HOME="$RELATIVE_STATE" HOME="$WORK/home"
check "with a relative XDG_STATE_HOME the login screen shows" line_is 'login> '
type_text 'login ana'; send Enter
check "with a relative XDG_STATE_HOME the list shows" wait_for '^My Tasks$'
send C-d
wait_for '^EXIT=' >/dev/null || true
history_under_home() {
    local folder
    for folder in "$WORK/$RELATIVE_STATE" "/$RELATIVE_STATE"; do
        if [[ -e $folder ]]; then
            echo "# a state folder was made from the relative XDG_STATE_HOME: $folder"
            rm -rf "$folder"
            return 1
        fi
    done
    [[ -f $WORK/home/.local/state/navstack/history ]] || { echo "# no history under HOME"; return 1; }
}
check "a relative XDG_STATE_HOME is ignored: the history is under HOME" history_under_home

# ------------------------------------------------------------------ subtasks

start_session subtasks
check "subtasks: launch shows the login screen" wait_for '^Sign in with your name'
type_text 'login ana'; send Enter
check "subtasks: 'login ana' shows My Tasks" wait_for '^My Tasks$'
mark
type_text 'open 1'; send Enter
type_text 'add Apples'; send Enter
check "'add Apples' on a task's screen opens the subtask under it" wait_for 'My Tasks › Buy fruit › Apples · navstack://tasks/1/4$'
type_text 'back'; send Enter
check "back shows the task with its subtask row" wait_for '^ 1  \[ \] Apples · #4$'
mark
type_text 'go tasks/1/'; send Tab
check "'go tasks/1/' + Tab offers the subtask's link tasks/1/4" wait_for '(^|[[:space:]])tasks/1/4([[:space:]]|$)'
send C-c
mark
type_text 'back to l'; send Tab
check "'back to l' + Tab completes to 'back to list '" wait_for 'back to list $'
send Enter
check "'back to list' shows the list with the task's progress" wait_for '^ 1  \[ \] Buy fruit \[0/1\] · #1$'
send C-d
check "subtasks: Ctrl-D ends with EXIT=0" wait_for '^EXIT=0$'

# ------------------------------------------------------------ screens that stay true

# Two panes on one store: what one commits shows in the other while its prompt waits,
# the half-typed line and its cursor as they were. (Within 2 s here, with room for a
# slow machine; scripts/bench measures the delay.)
start_session live
check "live: launch shows the login screen" wait_for '^Sign in with your name'
type_text 'login ana'; send Enter
check "live: 'login ana' shows My Tasks" wait_for '^My Tasks$'
FIRST=$PANE
printf -v second_command 'env -u LC_ALL -u LC_CTYPE -u NO_COLOR TERM=xterm-256color LANG=C.UTF-8 XDG_STATE_HOME=%q XDG_DATA_HOME=%q %q --store %q; echo "EXIT=$?"; sleep 30' \
    "$STATE" "$DATA" "$BINARY" "$DATA/live.sqlite"
tm split-window -v -t "$FIRST" "$second_command"
SECOND=live:0.1
PANE=$SECOND
MARK=0
check "live: the second pane opens where ana is" wait_for '^My Tasks$'
PANE=$FIRST
type_text 'add Half'
check "live: a half-typed line waits at the first pane's prompt" line_is 'tasks> add Half'
mark
PANE=$SECOND
type_text 'add From elsewhere'; send Enter
PANE=$FIRST
check "live: the other pane's task shows, after a line saying so" wait_for '^1 task changed elsewhere$' 2
check "live: the list printed again holds it" wait_for '^ 1  \[ \] From elsewhere · #[0-9]+$' 2
check "live: the half-typed line and its cursor are as they were" line_is 'tasks> add Half' 2
type_text ' line'; send Enter
check "live: finishing the line adds 'Half line'" wait_for '› Half line · navstack://tasks/[0-9]+$'
type_text 'root'; send Enter
type_text 'open 1'; send Enter
type_text 'edit'; send Enter
type_text 'title Mine'; send Enter
check "live: an edit with its title changed" wait_for '^Unsaved changes\.$'
mark
PANE=$SECOND
type_text 'root'; send Enter
type_text 'open 1'; send Enter
type_text 'edit'; send Enter
type_text 'title Theirs'; send Enter
type_text 'save'; send Enter
PANE=$FIRST
check "live: the edit screen says its task changed elsewhere" wait_for '^1 task changed elsewhere$' 2
check "live: ... and shows both titles, the draft kept" wait_for "^  title: yours 'Mine', theirs 'Theirs'" 2
type_text 'save'; send Enter
check "live: save then stops at the conflict, as the rules say" wait_for "was changed elsewhere too \\(title\\)"
send C-d
check "live: Ctrl-D ends with EXIT=1, as a session with a failed command does" wait_for '^EXIT=1$'
PANE=$SECOND
send C-d

echo "$PASSED passed, $FAILED failed"
(( FAILED == 0 ))
