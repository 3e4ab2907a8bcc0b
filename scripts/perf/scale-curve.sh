#!/usr/bin/env bash
# The permutation scale curve of docs/performance.md: the same experiment
# on a 2:1 leaf-spine (hosts_per_leaf = 2 x spines, 100 Gbps everywhere,
# 2 us, 256 KB per port, K = 65) from 16 to 512 hosts, 10 ms simulated,
# run by two builds in turn (A B A B ...) so that each pair sees the same
# machine. For every run it records the CPU seconds (user + system, from
# /usr/bin/time -v), the events and the delivered data packets (from the
# run's CSV); it prints per size the medians of ns of CPU per event and
# us per packet for each build and the median [min-max] of the paired
# ratios A/B per packet.
#
# usage: scripts/perf/scale-curve.sh NEW_BINARY OLD_BINARY [PAIRS] [SIZES]
#   e.g. scripts/perf/scale-curve.sh ./syncsim /tmp/syncsim-old 3 "16 32 64 128 256 512"
set -euo pipefail
A=${1:?new binary}
B=${2:?old binary}
PAIRS=${3:-3}
SIZES=${4:-"16 32 64 128 256 512"}
DUR=${DURATION_MS:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# spines leaves hosts_per_leaf for a host count
shape() {
	case $1 in
	16) echo "4 2 8" ;; 32) echo "4 4 8" ;; 64) echo "8 4 16" ;;
	128) echo "8 8 16" ;; 256) echo "8 16 16" ;; 512) echo "8 32 16" ;;
	*) echo "unknown size $1" >&2; exit 2 ;;
	esac
}

# one BIN SIZE: prints "cpu_s events data_pkts"
one() {
	read -r s l h < <(shape "$2")
	rm -f "$tmp/r.csv" "$tmp/r.csv.json"
	/usr/bin/time -v "$1" run permutation --set spines="$s" --set leaves="$l" --set hosts_per_leaf="$h" \
		--set duration_ms="$DUR" --parallel 1 --csv "$tmp/r.csv" >/dev/null 2>"$tmp/time.txt"
	cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$tmp/time.txt")
	awk -F, -v cpu="$cpu" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i} NR == 2 {print cpu, $c["events"], $c["data_pkts"]}' "$tmp/r.csv"
}

printf '%-6s %-9s %-10s %-10s %-10s %-10s %s\n' hosts events/pkt "A ns/ev" "B ns/ev" "A us/pkt" "B us/pkt" "A/B per pkt, median [min-max]"
for n in $SIZES; do
	: >"$tmp/a"; : >"$tmp/b"
	for _ in $(seq "$PAIRS"); do
		one "$A" "$n" >>"$tmp/a"
		one "$B" "$n" >>"$tmp/b"
	done
	paste -d' ' "$tmp/a" "$tmp/b" | awk -v n="$n" '
	function med(x, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
		return k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
	{ k++; ae[k] = $1 / $2 * 1e9; be[k] = $4 / $5 * 1e9; ap[k] = $1 / $3 * 1e6; bp[k] = $4 / $6 * 1e6; r[k] = ap[k] / bp[k]; ep = $2 / $3
	  if (k == 1 || r[k] < lo) lo = r[k]; if (k == 1 || r[k] > hi) hi = r[k] }
	END { printf "%-6s %-9.2f %-10.0f %-10.0f %-10.2f %-10.2f %.2f [%.2f-%.2f]\n", n, ep, med(ae, k), med(be, k), med(ap, k), med(bp, k), med(r, k), lo, hi }'
done
