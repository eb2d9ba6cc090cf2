# Sourced by the callgrind scripts of benches/.
# instructions CMD...: the instructions callgrind counts in one run of CMD
# (its output thrown away); environment assignments before the call reach CMD.
instructions() {
    local log
    log=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$log"
    awk '/Collected/ { print $NF }' "$log"
    rm -f "$log"
}
