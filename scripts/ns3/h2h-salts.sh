#!/usr/bin/env bash
# scripts/ns3/h2h-salts.sh OUTDIR: how much of the head to head's difference
# in the large flows' buckets (h2h.sh) is the ECMP hash draw. On the same
# topology and flow files it reruns syncsim with other seeds (on a
# flows_file replay the seed changes only the ECMP hash salt: netsim's
# TestSeedSaltsECMP) and, for the cases in NS3_SALT_CASES, ns-3's filerun
# with other --ecmp_salt values, then prints salt_spread.py's table per
# case: syncsim/ns-3 per bucket beside syncsim/syncsim (other draw).
#
#   SEEDS           syncsim's other seeds (default 2..10; seed 1 is h2h.sh's)
#   NS3_SALTS       filerun's other salts (default 1; 0 is h2h.sh's)
#   NS3_SALT_CASES  cases that run ns-3 at those salts (default both; about
#                   100-130 CPU-seconds each, run one at a time)
#   CASES           as h2h.sh (default ft8-s1 ft8-s2)
#   ABOVE           salt_spread.py --above (default 1000000)
#
# It runs h2h.sh OUTDIR first (ns-3's default runs come from h2h-results/),
# so everything of h2h.sh applies. ns-3's runs at other salts on the kept
# inputs are kept too (h2h-results/CASE.ns3-saltN.*) and reused when the
# inputs and NS3_ARGS are the same; NS3_REUSE=0 reruns them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: h2h-salts.sh OUTDIR}
export CASES=${CASES:-"ft8-s1 ft8-s2"}
SEEDS=${SEEDS:-"2 3 4 5 6 7 8 9 10"}
NS3_SALTS=${NS3_SALTS:-1}
NS3_SALT_CASES=${NS3_SALT_CASES:-"ft8-s1 ft8-s2"}
ABOVE=${ABOVE:-1000000}
NS3_ARGS=${NS3_ARGS:-"--ecn_k_pkts=65 --buffer_kb=256 --host_k_pkts=65 --recovery=prr-linux --ca=bytes --fct_from=connect --fct_end=ack"}
export NS3_ARGS
for s in $SEEDS $NS3_SALTS; do
	if ! [[ $s =~ ^[0-9]+$ ]]; then
		echo "h2h-salts.sh: seed or salt '$s' is not a non-negative integer" >&2
		exit 2
	fi
done

mkdir -p "$out"
bash "$here/h2h.sh" "$out" >"$out/h2h.txt"
bin=${NS3_BUILD:-${TMPDIR:-/tmp}/syncsim-ns3}/filerun
kept=$here/h2h-results
# h2h.sh's settings (SYNCSIM_SETS there).
SYNCSIM_SETS=${SYNCSIM_SETS:-"ecn_k_pkts=65 buffer_kb=256 nic_ecn_k_pkts=65 dctcp_cwr=hold warmup_ms=0"}
sets=()
for kv in $SYNCSIM_SETS; do
	sets+=(--set "$kv")
done

for c in $CASES; do
	o=$out/$c
	# syncsim at the other seeds, as h2h.sh runs it at seed 1.
	for s in $SEEDS; do
		if [[ ! -s $o.syncsim-seed$s.cpu ]]; then
			rm -f "$o.syncsim-seed$s".{csv,csv.json,fct.txt}
			/usr/bin/time -f '%U %S' -o "$o.syncsim-seed$s.time" "${SYNCSIM:-$out/syncsim}" run background "${sets[@]}" \
				--set "topology_file=$o.topo" --set "flows_file=$o.flows" \
				--set "fct_out=$o.syncsim-seed$s.fct.txt" --set duration_ms="${SYNCSIM_DURATION_FT:-100}" \
				--seed "$s" --csv "$o.syncsim-seed$s.csv" --quiet >/dev/null 2>"$o.syncsim-seed$s.err"
			awk '{ printf "%.2f\n", $1 + $2 }' "$o.syncsim-seed$s.time" >"$o.syncsim-seed$s.cpu"
		fi
	done
	# ns-3 at the other salts, one run at a time.
	ref_alt=()
	if [[ " $NS3_SALT_CASES " == *" $c "* ]]; then
		for s in $NS3_SALTS; do
			r=$o.ns3-salt$s
			if [[ ${NS3_REUSE:-1} == 1 && ! -s $r.out && -s $kept/$c.ns3-salt$s.out &&
				$(cat "$kept/ns3-args.txt") == "$NS3_ARGS" ]] &&
				(cd "$out" && grep -E " ($c\.topo|$c\.flows)\$" "$kept/inputs.sha256" | sha256sum -c --quiet --strict - >/dev/null 2>&1); then
				gunzip -c "$kept/$c.ns3-salt$s.fct.gz" >"$r.fct"
				cp "$kept/$c.ns3-salt$s.out" "$r.out"
				echo "h2h-salts.sh: $c salt $s: ns-3's results kept in h2h-results/" >&2
			fi
			if [[ ! -s $r.out ]]; then
				# shellcheck disable=SC2086 # NS3_ARGS is a list of flags
				"$bin" --topology="$o.topo" --flows="$o.flows" --fct="$r.fct" $NS3_ARGS --ecmp_salt="$s" >"$r.out.tmp"
				mv "$r.out.tmp" "$r.out"
			fi
			ref_alt+=(--ref-alt "$r.fct")
		done
	fi
	alt=()
	cpu=0
	for s in $SEEDS; do
		alt+=(--alt "$o.syncsim-seed$s.fct.txt")
		cpu=$(awk -v a="$cpu" -v b="$(cat "$o.syncsim-seed$s.cpu")" 'BEGIN { printf "%.2f", a + b }')
	done
	echo "== $c: ns-3 (salt 0$(for s in ${ref_alt[@]+$NS3_SALTS}; do printf ', %s' "$s"; done)) against syncsim (seed 1, $(echo $SEEDS | tr ' ' ',')); syncsim's other seeds took $cpu CPU-s$(for s in ${ref_alt[@]+$NS3_SALTS}; do printf ', ns-3 salt %s %s CPU-s' "$s" "$(awk '$1 == "cpu_s" { print $2 }' "$o.ns3-salt$s.out")"; done)"
	python3 "$here/salt_spread.py" --topology "$o.topo" --above "$ABOVE" --ref "$o.ns3.fct" \
		--base "$o.syncsim.fct.txt" "${alt[@]}" ${ref_alt[@]+"${ref_alt[@]}"} | tee "$o.salts.txt"
	echo
done
echo "raw results: $out" >&2
