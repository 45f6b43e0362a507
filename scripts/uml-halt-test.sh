#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checks of uml_halt_abort (lib.sh), the rule by which scripts/kunit.sh
# tells UML's own abort at shutdown from a crash: synthetic console logs
# and results, each with the verdict it must get. Prints "ok N - ..." /
# "not ok N - ..." and "uml-halt: N passed, N failed".

. "$(dirname "$0")/lib.sh"
set +e

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# console NAME LINE...: a console log whose last lines are LINE...
console() {
	local f=$T/$1
	shift
	printf 'KTAP version 1\n1..1\n# Totals: pass:13 fail:0 skip:0 total:13\nok 1 utfconv_paths\n' >"$f"
	printf '%s\n' "$@" >>"$f"
}

# verdict WANT(abort|fail) DESC URC LOG RC ERRORS RAN FAILED
verdict() {
	local want=$1 desc=$2 got=fail
	shift 2
	uml_halt_abort "$1" "$T/$2" "$3" "$4" "$5" "$6" && got=abort
	[ "$got" = "$want" ]
	tap_ok $? "$desc: got $got, want $want (exit $1, log $(tail -n 2 "$T/$2" | tr '\n' '|'))"
}

console halted 'reboot: System halted'
console halted-blank 'reboot: System halted' '' ''
console panic-after 'reboot: System halted' 'Kernel panic - not syncing: Kernel mode fault'
console no-halt
console crlf $'reboot: System halted\r'

verdict abort "exit 134 after a complete passing run and the halt" 134 halted 0 0 13 0
verdict abort "blank lines after the halt line" 134 halted-blank 0 0 13 0
verdict abort "a CR at the end of the halt line" 134 crlf 0 0 13 0
verdict fail "exit 134, a panic message after the halt" 134 panic-after 0 0 13 0
verdict fail "exit 134 without the halt line" 134 no-halt 0 0 13 0
verdict fail "exit 139 (SIGSEGV) after the halt" 139 halted 0 0 13 0
verdict fail "exit 124 (timeout) after the halt" 124 halted 0 0 13 0
verdict fail "exit 0 is not an abort" 0 halted 0 0 13 0
verdict fail "exit 134, kunit.py parse failed" 134 halted 1 0 13 0
verdict fail "exit 134, KTAP parse errors" 134 halted 0 2 13 0
verdict fail "exit 134, no test ran" 134 halted 0 0 0 0
verdict fail "exit 134, no count of tests" 134 halted 0 0 '' 0
verdict fail "exit 134, a test failed or crashed" 134 halted 0 0 13 1
verdict fail "exit 134, no count of failures" 134 halted 0 0 13 ''

echo "uml-halt: $tap_passed passed, $tap_failed failed"
[ "$tap_failed" = 0 ]
