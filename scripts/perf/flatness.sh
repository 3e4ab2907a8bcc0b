#!/usr/bin/env bash
# The flatness figure of docs/performance.md: CPU per event of one build on
# the 512-host permutation (8 spines x 32 leaves x 16 hosts, 2 ms
# simulated) over the 16-host one (4 x 2 x 8, 10 ms), the two run in turn
# in each round so that both see the same machine. For every run it
# records the CPU seconds (user + system, from /usr/bin/time) and the
# events (from the run's CSV); it prints each round's ns per event at both
# sizes and their ratio, then the median [min-max] of the ratios.
#
# usage: scripts/perf/flatness.sh BINARY [ROUNDS]
#   e.g. scripts/perf/flatness.sh ./syncsim 5
set -euo pipefail
BIN=${1:?binary}
ROUNDS=${2:-5}
command -v "$BIN" >/dev/null || { echo "flatness.sh: no program $BIN" >&2; exit 1; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "flatness.sh: ROUNDS must be a positive integer, not $ROUNDS" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one OUT SHAPE...: writes "cpu_s events" of one permutation run to OUT
one() {
	local out=$1
	shift
	rm -f "$tmp/r.csv" "$tmp/r.csv.json"
	/usr/bin/time -o "$tmp/time.txt" -f '%U %S' "$BIN" run permutation "$@" --parallel 1 -q \
		--csv "$tmp/r.csv" >/dev/null || { echo "flatness.sh: $BIN run permutation $* failed" >&2; exit 1; }
	read -r u s <"$tmp/time.txt"
	awk -F, -v cpu="$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')" \
		'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i} NR == 2 && $c["events"] > 0 {print cpu, $c["events"]}' \
		"$tmp/r.csv" >"$out"
	[[ -s $out ]] || { echo "flatness.sh: no events in the run's CSV" >&2; exit 1; }
}

printf '%-6s %-12s %-12s %s\n' round "16 ns/ev" "512 ns/ev" "512/16"
for r in $(seq "$ROUNDS"); do
	one "$tmp/16" --set spines=4 --set leaves=2 --set hosts_per_leaf=8
	one "$tmp/512" --set spines=8 --set leaves=32 --set hosts_per_leaf=16 --set duration_ms=2
	read -r c16 e16 <"$tmp/16"
	read -r c512 e512 <"$tmp/512"
	awk -v r="$r" -v a="$c16" -v ea="$e16" -v b="$c512" -v eb="$e512" \
		'BEGIN {printf "%-6s %-12.1f %-12.1f %.2f\n", r, a / ea * 1e9, b / eb * 1e9, (b / eb) / (a / ea)}' | tee -a "$tmp/rounds"
done
awk '{x[++k] = $4} END {
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
	m = k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
	printf "512/16 per event: %.2f [%.2f-%.2f] over %d rounds\n", m, x[1], x[k], k }' "$tmp/rounds"
