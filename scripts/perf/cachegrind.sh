#!/usr/bin/env bash
# Instruction counts and cache misses under cachegrind of the three runs
# docs/performance-history.md follows from build to build: the 512-host
# permutation (0.3 ms simulated), the 16-host permutation (1 ms) and the
# quick ina-leafspine point. Counts are repeatable on a loaded machine,
# where CPU seconds are not. The last level is set to a 1 MB second-level
# cache, so "LL misses" are data accesses that leave a core's own cache.
# For each run it prints the totals and the engine's own share (functions
# of package syncsim/..., leaving out the runtime, whose forced
# collections follow wall time under valgrind): instructions, first-level
# data misses (reads + writes) and last-level data misses.
#
# With FUNCS=N in the environment it also lists the engine's N functions
# with the most LLd misses (instructions, L1d misses, LLd misses each).
# Counts are printed in full (mawk's %d stops at 2^31 - 1).
#
# usage: [FUNCS=N] scripts/perf/cachegrind.sh BINARY [RUNS]
#   RUNS: any of p512 p16 ina (default: all three)
#   e.g. scripts/perf/cachegrind.sh ./syncsim "p16 ina"
set -euo pipefail
BIN=${1:?binary}
RUNS=${2:-"p512 p16 ina"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $RUNS; do
	case $r in
	p512) args="run permutation --set spines=8 --set leaves=32 --set hosts_per_leaf=16 --set duration_ms=0.3 -q" ;;
	p16) args="run permutation --set spines=4 --set leaves=2 --set hosts_per_leaf=8 --set duration_ms=1 -q" ;;
	ina) args="run ina-leafspine --set run_length=quick --set bg_warmup_ms=1 -q" ;;
	*) echo "unknown run $r (p512, p16, ina)" >&2; exit 2 ;;
	esac
	# valgrind 3.19 needs the runtime off RDTSCP, and one thread.
	GODEBUG=cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=yes \
		--LL=1048576,16,64 --cachegrind-out-file="$tmp/$r.cg" "$BIN" $args >"$tmp/$r.out" 2>"$tmp/$r.log"
	events=$(awk -F'│' '/ events /{gsub(/ /,"",$3); print $3}' "$tmp/$r.out")
	# Columns: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw.
	awk -v run="$r" -v events="$events" -v funcs="${FUNCS:-0}" '
		/^events:/ { next }
		/^fn=/ { fn = substr($0, 4); eng = (substr(fn, 1, 8) == "syncsim/"); next }
		/^[0-9]/ {
			ir += $2; d1 += $6 + $9; ll += $7 + $10
			if (eng) {
				eir += $2; ed1 += $6 + $9; ell += $7 + $10
				fir[fn] += $2; fd1[fn] += $6 + $9; fll[fn] += $7 + $10
			}
		}
		END {
			printf "%s: %s events; all: %.0f instructions, %.0f L1d misses, %.0f LLd misses; engine: %.0f instructions, %.0f L1d misses, %.0f LLd misses\n",
				run, events, ir, d1, ll, eir, ed1, ell
			if (funcs > 0) {
				for (f in fll) printf "%14.0f %12.0f %12.0f  %s\n", fir[f], fd1[f], fll[f], f | ("sort -k3,3nr | head -" funcs)
				close("sort -k3,3nr | head -" funcs)
			}
		}' "$tmp/$r.cg"
done
