#!/usr/bin/env bash
# Interleaved CPU rounds of several builds of syncsim on one command
# (docs/performance.md, "One event per packet per hop"): each round runs
# every build once, in the order given (A B C, A B C, ...), so that a
# shared machine's drift falls on all of them alike; ratios are then
# taken round by round. For each run it prints the round, the build, its
# CPU seconds (user + system, from /usr/bin/time) and, from the first row
# of the run's CSV, its events and its data_pkts (empty where the
# experiment has none).
#
# usage: scripts/perf/pairs.sh ROUNDS "SYNCSIM ARGS" BINARY...
#   e.g. scripts/perf/pairs.sh 5 "run incast --set duration_ms=1000" /tmp/old ./syncsim
# Output: one line per run, "round build cpu_s events data_pkts".
set -euo pipefail
rounds=${1:?rounds}
args=${2:?syncsim arguments}
shift 2
[ $# -ge 1 ] || { echo "pairs.sh: name at least one binary" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$rounds"); do
	for b in "$@"; do
		# shellcheck disable=SC2086 # args is a list of words
		cpu=$({ /usr/bin/time -f "%U %S" "$b" $args -q --force --csv "$tmp/run.csv" >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}')
		row=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i } NR == 2 { print $col["events"], (("data_pkts" in col) ? $col["data_pkts"] : "") }' "$tmp/run.csv")
		echo "$i $b $cpu $row"
	done
done
