#!/usr/bin/env bash
# scripts/ns3/compare-r1.sh [SEEDS] [OUTDIR]: R1 (8 DCTCP senders into one
# 10 Gbps port, 10 us per cable, K = 65, 1000 KB, 1 s, statistics after
# 100 ms) in syncsim at dctcp_cwr=hold, cut and grow, and in ns-3.37 (run.sh)
# with its stock DCTCP and with the reduction and congestion-avoidance
# arithmetic of each syncsim mode; SEEDS seeds each (default 5). Prints
# median [min-max] over seeds, then syncsim's median over ns-3's for the
# pairs that run the same model. Raw results stay in OUTDIR (default a
# temporary directory; runs already there are kept, so an interrupted
# comparison resumes). ns-3 takes about 25 CPU-seconds a run; two run at a
# time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seeds=${1:-5}
out=${2:-$(mktemp -d)}
if ! [[ $seeds =~ ^[1-9][0-9]*$ ]]; then
	echo "compare-r1.sh: SEEDS must be a positive integer, got '$seeds'" >&2
	exit 2
fi
mkdir -p "$out"
r1=(senders=8 link_gbps=10 delay_us=10 ecn_k_pkts=65 buffer_kb=1000 duration_ms=1000)

syncsim=${SYNCSIM:-$out/syncsim}
if [[ -z ${SYNCSIM:-} ]]; then
	(cd "$root" && go build -o "$syncsim" ./cmd/syncsim)
fi
sets=()
for kv in "${r1[@]}"; do sets+=(--set "$kv"); done
rm -f "$out/syncsim.csv" "$out/syncsim.csv.json"
"$syncsim" sweep incast "${sets[@]}" --vary dctcp_cwr=hold,cut,grow --trials "$seeds" \
	--csv "$out/syncsim.csv" --quiet >/dev/null 2>&1

# ns-3 configurations: name recovery ca. stock is ns-3.37's DCTCP as
# shipped; prrlinux-bytes and classic-bytes run the reductions of syncsim's
# hold and cut with syncsim's congestion-avoidance arithmetic; classic and
# prr-bytes tell the arithmetic's share from the reduction's. NS3_CONFIGS
# (names without "ns3-", space-separated) runs a subset.
configs=(
	"ns3-stock prr linux-reno"
	"ns3-prrlinux-bytes prr-linux bytes"
	"ns3-classic-bytes classic bytes"
	"ns3-classic classic linux-reno"
	"ns3-prr-bytes prr bytes"
)
if [[ -n ${NS3_CONFIGS:-} ]]; then
	keep=()
	for c in "${configs[@]}"; do
		for w in $NS3_CONFIGS; do
			[[ ${c%% *} == "ns3-$w" ]] && keep+=("$c")
		done
	done
	if ((${#keep[@]} == 0)); then
		echo "compare-r1.sh: NS3_CONFIGS='$NS3_CONFIGS' names no configuration" >&2
		exit 2
	fi
	configs=("${keep[@]}")
fi
"$here/run.sh" --duration_ms=0.01 --warmup_ms=0 >/dev/null # build once
jobs=()
for c in "${configs[@]}"; do
	read -r name rec ca <<<"$c"
	for ((s = 1; s <= seeds; s++)); do
		jobs+=("$name $rec $ca $s")
	done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c '
	f="'"$out"'/$0.$3.txt"
	if [[ ! -s $f ]]; then
		if ! "'"$here"'/run.sh" --recovery="$1" --ca="$2" --seed="$3" >"$f.tmp"; then
			echo "compare-r1.sh: ns-3 run $0 seed $3 failed" >&2
			exit 255
		fi
		mv "$f.tmp" "$f"
	fi'

# One line per run: config seed metric value.
{
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ n = "syncsim-" $col["dctcp_cwr"]
		  split("goodput_gbps queue_mean_pkts queue_max_pkts ecn_marks jain", ms, " ")
		  for (j in ms) print n, $col["seed"], ms[j], $col[ms[j]] }' "$out/syncsim.csv"
	for c in "${configs[@]}"; do
		for ((s = 1; s <= seeds; s++)); do
			f=$out/${c%% *}.$s.txt
			awk -v n="${c%% *}" -v s="$s" '{ print n, s, $1, $2 }' "$f"
		done
	done
} >"$out/all.txt"

awk '
function median(a, k,   i, j, t) {
	for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
{ k = $1 SUBSEP $3; n[k]++; v[k, n[k]] = $4; if (!($1 in seen)) { seen[$1] = 1; order[++nc] = $1 } }
END {
	split("goodput_gbps queue_mean_pkts queue_max_pkts ecn_marks jain", ms, " ")
	printf "%-20s %-28s %-28s %-22s %-30s %-26s\n", "run", "goodput_gbps", "queue_mean_pkts", "queue_max_pkts", "ecn_marks", "jain"
	for (c = 1; c <= nc; c++) {
		printf "%-20s", order[c]
		for (m = 1; m <= 5; m++) {
			k = order[c] SUBSEP ms[m]; cnt = n[k]; lo = 1e300; hi = -1e300
			for (i = 1; i <= cnt; i++) { a[i] = v[k, i] + 0; if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
			med[order[c], ms[m]] = median(a, cnt)
			if (ms[m] == "ecn_marks") s = sprintf("%d [%d-%d]", med[order[c], ms[m]], lo, hi)
			else if (ms[m] == "jain") s = sprintf("%.4f [%.4f-%.4f]", med[order[c], ms[m]], lo, hi)
			else s = sprintf("%.3f [%.3f-%.3f]", med[order[c], ms[m]], lo, hi)
			printf " %-" (m == 1 ? 27 : m == 2 ? 27 : m == 3 ? 21 : m == 4 ? 29 : 25) "s", s
		}
		printf "\n"
	}
	printf "\nsyncsim median / ns-3 median\n%-42s %-16s %-10s\n", "pair", "queue_mean_pkts", "ecn_marks"
	np = split("syncsim-hold:ns3-prrlinux-bytes syncsim-cut:ns3-classic-bytes syncsim-hold:ns3-stock syncsim-cut:ns3-stock syncsim-grow:ns3-stock syncsim-cut:ns3-classic", pairs, " ")
	for (p = 1; p <= np; p++) {
		split(pairs[p], ab, ":")
		if (!((ab[1], "ecn_marks") in med) || !((ab[2], "ecn_marks") in med)) continue
		printf "%-42s %-16.3f %-10.3f\n", ab[1] " / " ab[2], med[ab[1], "queue_mean_pkts"] / med[ab[2], "queue_mean_pkts"], med[ab[1], "ecn_marks"] / med[ab[2], "ecn_marks"]
	}
}' "$out/all.txt"
echo "raw results: $out" >&2
