#!/usr/bin/env bash
# Where ATP aggregates on a k = 8 fat-tree (128 hosts,
# ina-leafspine's 8 jobs x 12 workers at 0.5 percent, 3 iterations with
# the first left out): at the PS's edge switch (ps-leaf), at two levels
# (two-level: the workers' edges, then the PS's edge) or at every tier of
# a tree per job (every-tier: the workers' edges, the pods' aggregation
# switches, the job's core, the PS's pod and edge). AJCT, drops and the
# bytes on the core's cables (core_mb), 5 seeds, each placement's paired
# change against ps-leaf seed by seed.
#
#   scripts/ina/tiers.sh [OUTDIR [FIGURE...]]   (default OUTDIR ina-tiers)
#
# tiers: without background (load=0), so core_mb is the jobs' own bytes;
#        about 60 CPU-s for the 15 runs.
# tiers-bg: the same at the default Hadoop background (fabric load 0.5),
#        seed 1 only (one run per placement, 80-200 CPU-s each, about 410
#        in all): an illustration, not a five-seed claim.
# tables: the tables of whichever of the two CSVs exist.
# See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-tiers
figures=(tiers tiers-bg tables)

ft=(--set topology=fattree --set k=8 --set protocol=atp --vary agg_placement=ps-leaf,two-level,every-tier)
metrics=ajct_ms,jct_max_ms,drops,drops_uplink,drops_downlink,drops_ps_port,retransmits,core_mb,switch_agg_frac

tiers() { sweep tiers ina-leafspine "${ft[@]}" --set load=0 --trials 5 --timing; }
tiers-bg() { sweep tiers-bg ina-leafspine "${ft[@]}" --trials 1 --timing; }

tables() {
	local f
	for f in tiers tiers-bg; do
		[[ -e $f.csv ]] || continue
		table "$f" "Placement on the k = 8 fat-tree ($f): median [min-max]" "$f.csv" --metric "$metrics"
		table "$f-ajct" "Placement on the k = 8 fat-tree ($f): paired change against ps-leaf, percent" "$f.csv" \
			--metric ajct_ms,jct_max_ms --vs agg_placement=ps-leaf --change percent --changes-only --count-below 0
		table "$f-drops" "Placement on the k = 8 fat-tree ($f): paired change against ps-leaf, percent" "$f.csv" \
			--metric drops,retransmits --vs agg_placement=ps-leaf --change percent --changes-only --count-below 0
		table "$f-core" "Placement on the k = 8 fat-tree ($f): paired change against ps-leaf, percent" "$f.csv" \
			--metric core_mb --vs agg_placement=ps-leaf --change percent --changes-only --count-below 0
		seeds "$f"
		append_tables "$f" "$f-ajct" "$f-drops" "$f-core" "$f-seeds"
	done
}

# seeds NAME: NAME-seeds.md, AJCT, drops and core_mb of every run of
# NAME.csv and each run's change against ps-leaf on its seed.
seeds() {
	awk -F, -v title="Placement on the k = 8 fat-tree ($1): seed by seed" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			s = $c["seed"]; p = $c["agg_placement"]
			a[s, p] = $c["ajct_ms"]; d[s, p] = $c["drops"]; m[s, p] = $c["core_mb"]
			if (!(s in seen)) { seen[s] = 1; order[++n] = s }
			if (!(p in pseen)) { pseen[p] = 1; place[++np] = p }
		}
		function pc(x, b, p) { return (p == "ps-leaf") ? "baseline" : (b == 0 || x == "NaN" || b == "NaN") ? "NaN" : sprintf("%+.0f%%", 100 * (x / b - 1)) }
		END {
			printf "### %s\n\n(awk over %s in scripts/ina/tiers.sh)\n\n| seed | placement | ajct_ms | drops | core_mb | ajct vs ps-leaf | drops vs ps-leaf | core_mb vs ps-leaf |\n|---|---|---|---|---|---|---|---|\n", title, FILENAME
			for (i = 1; i <= n; i++)
				for (j = 1; j <= np; j++) {
					s = order[i]; p = place[j]
					printf "| %s | %s | %.3g | %d | %.0f | %s | %s | %s |\n", s, p, a[s, p], d[s, p], m[s, p],
						pc(a[s, p], a[s, "ps-leaf"], p), pc(d[s, p], d[s, "ps-leaf"], p), pc(m[s, p], m[s, "ps-leaf"], p)
				}
		}' "$1.csv" >"$1-seeds.md"
}

main "$@"
