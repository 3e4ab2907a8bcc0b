#!/bin/sh
# Replays a flow file in the HPCC ns-3 branch's flow.txt format on the
# background experiment's default leaf-spine (8 spines x 8 leaves x 16
# hosts, 100 Gbps, DCTCP) and writes its fct.txt, timing the run:
#
#   scripts/flowfiles/replay.sh OUTDIR [FLOWS]
#
# The flow file is generated without randomness, so any machine writes the
# same one: FLOWS flows (default 2000), flow i from host (37 i) mod 128 to
# another host (mostly under another leaf), sizes cycling through 1 KB, 10 KB, 100 KB and
# 1 MB, starting every 2 us from 1 ms. OUTDIR gets flow.txt, fct.txt, the
# run's CSV and time.txt (/usr/bin/time -v).
set -eu
out=${1:?usage: replay.sh OUTDIR [FLOWS]}
n=${2:-2000}
mkdir -p "$out"
awk -v n="$n" 'BEGIN {
	print n
	split("1000 10000 100000 1000000", size, " ")
	for (i = 0; i < n; i++) {
		src = (37 * i) % 128
		dst = (src + 16 * (1 + i % 7) + i % 16) % 128
		printf "%d %d 3 100 %d %.9f\n", src, dst, size[1 + i % 4], 0.001 + i * 2e-6
	}
}' > "$out/flow.txt"
go build -o "$out/syncsim" ./cmd/syncsim
/usr/bin/time -v -o "$out/time.txt" "$out/syncsim" run background -q --force \
	--set flows_file="$out/flow.txt" --set fct_out="$out/fct.txt" \
	--set duration_ms=20 --set warmup_ms=0 --csv "$out/run.csv"
grep -E 'User time|System time|Maximum resident' "$out/time.txt"
echo "$(wc -l < "$out/fct.txt") lines in $out/fct.txt"
