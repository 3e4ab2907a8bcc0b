#!/usr/bin/env bash
# The parallel engine at one run's size (docs/performance.md, "The parallel
# engine at the sizes users run"): the engine profile's predicted speedups
# (--engine-profile, at 2 threads) and the measured speedup of 2 threads
# over 1. It runs the profile once, then ROUNDS rounds of --threads 1 and
# --threads 2 in turn, so that a shared machine's drift falls on both alike,
# each under /usr/bin/time; for every run it prints the round, the thread
# count, wall, user and system seconds and the 1-minute load average just
# before it, then the medians [min-max] over rounds of the wall-clock
# speedup (wall at 1 thread over wall at 2) and of the CPU ratio (user +
# system at 2 threads over 1), each taken round by round.
#
# usage: scripts/perf/threads.sh BINARY ROUNDS SYNCSIM-RUN-ARGS...
#   e.g. scripts/perf/threads.sh ./syncsim 5 permutation --set spines=8 --set leaves=32 \
#          --set hosts_per_leaf=16 --set duration_ms=2
# The arguments follow `syncsim run`; the script adds --threads, -q and a
# scratch --csv. On a machine with fewer than 2 free cores the wall-clock
# speedup says more about the load than about the engine: read the load
# column.
set -euo pipefail
BIN=${1:?binary}
ROUNDS=${2:?rounds}
shift 2
[ $# -ge 1 ] || { echo "threads.sh: give the experiment and its --set arguments" >&2; exit 2; }
command -v "$BIN" >/dev/null || { echo "threads.sh: no program $BIN" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "threads.sh: ROUNDS must be a positive integer, not $ROUNDS" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }

echo "== engine profile: $BIN run $* --threads 2 --engine-profile (load $(load))"
"$BIN" run "$@" --threads 2 --engine-profile -q --csv "$tmp/p.csv" 2>&1 >/dev/null |
	grep -v 'does not know its commit'

# one ROUND THREADS: one timed run, one line of output
one() {
	local l
	l=$(load)
	rm -f "$tmp/r.csv" "$tmp/r.csv.json"
	/usr/bin/time -o "$tmp/time.txt" -f '%e %U %S' "$BIN" run "${@:3}" --threads "$2" -q \
		--csv "$tmp/r.csv" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; echo "threads.sh: run failed" >&2; exit 1; }
	read -r e u s <"$tmp/time.txt"
	echo "$1 $2 $e $u $s $l" | tee -a "$tmp/runs"
}
echo "== rounds: round threads wall_s user_s sys_s load1"
for r in $(seq "$ROUNDS"); do
	one "$r" 1 "$@"
	one "$r" 2 "$@"
done
awk '
	$2 == 1 { w1[$1] = $3; c1[$1] = $4 + $5 }
	$2 == 2 { w2[$1] = $3; c2[$1] = $4 + $5 }
	END {
		for (r in w1) { k++; sp[k] = w1[r] / w2[r]; cr[k] = c2[r] / c1[r] }
		printf "wall-clock speedup, 2 threads over 1: %s over %d rounds\n", med(sp, k), k
		printf "CPU (user + sys), 2 threads over 1:   %s\n", med(cr, k)
	}
	function med(x, n,   i, j, t, m) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
		m = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		return sprintf("%.2f [%.2f-%.2f]", m, x[1], x[n])
	}' "$tmp/runs"
