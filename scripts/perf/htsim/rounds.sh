#!/usr/bin/env bash
# R1 in interleaved rounds of syncsim builds and the htsim driver
# (docs/performance.md, the targets under "One event per packet per hop"):
# each round runs every syncsim build on R1 and then r1_incast once, under
# /usr/bin/time; it prints each run's CPU seconds (user + system), then
# each build's CPU over htsim's, round by round, as median [min-max].
#
# usage: scripts/perf/htsim/rounds.sh ROUNDS R1_INCAST SYNCSIM...
#   e.g. scripts/perf/htsim/rounds.sh 9 /tmp/htsim/r1_incast ./syncsim /tmp/15d15d3
set -euo pipefail
rounds=${1:?usage: rounds.sh ROUNDS R1_INCAST SYNCSIM...}
htsim=${2:?usage: rounds.sh ROUNDS R1_INCAST SYNCSIM...}
shift 2
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "rounds.sh: ROUNDS must be a positive integer, not $rounds" >&2; exit 2; }
[ $# -ge 1 ] || { echo "rounds.sh: name at least one syncsim binary" >&2; exit 2; }
for b in "$htsim" "$@"; do
	command -v "$b" >/dev/null || { echo "rounds.sh: no program $b" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
r1=(run incast --set senders=8 --set link_gbps=10 --set delay_us=10 --set ecn_k_pkts=65
	--set buffer_kb=1000 --set duration_ms=1000 -q --force --csv "$tmp/r1.csv")

# cpu PROGRAM ARGS...: the CPU seconds of one run
cpu() {
	/usr/bin/time -o "$tmp/t" -f '%U %S' "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "rounds.sh: $* failed: $(tail -1 "$tmp/err")" >&2; exit 1; }
	awk '{print $1 + $2}' "$tmp/t"
}

for i in $(seq "$rounds"); do
	h=$(cpu "$htsim")
	echo "$i htsim $h"
	for b in "$@"; do
		c=$(cpu "$b" "${r1[@]}")
		echo "$i $b $c"
		echo "$c $h" >>"$tmp/ratio.$(echo "$b" | tr '/' '_')"
	done
done
for b in "$@"; do
	awk '{ print $1 / $2 }' "$tmp/ratio.$(echo "$b" | tr '/' '_')" | sort -g |
		awk -v b="$b" '{ r[NR] = $1 } END {
			med = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
			printf "%s / htsim: %.2f [%.2f-%.2f] (%d rounds)\n", b, med, r[1], r[NR], NR }'
done
