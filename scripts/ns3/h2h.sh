#!/usr/bin/env bash
# scripts/ns3/h2h.sh [OUTDIR]: syncsim and ns-3.37 head to head on the same
# topology.txt and flow.txt files (the HPCC ns-3 branch's formats), under
# DCTCP: FCT slowdown p50/p95/p99 per flow-size bucket from both tools and
# the CPU each took (fct_compare.py). Cases:
#
#   sample   the branch's own mix/topology.txt and mix/flow.txt
#            (hpcc-sample/: 2 flows of 200 MB into one host of a 100 Gbit/s
#            star; the file lists more lines but its count is 2)
#   ft8-sS   a k=8 fat-tree (fattree_topology.py: 128 hosts, 80 switches,
#            every link 100 Gbit/s and 1 us) with FT_FLOWS web-search flows
#            at FT_LOAD of the host links (websearch_flows.py, seed S)
#
# ns-3's results for the default cases are kept in h2h-results/ and reused
# when the inputs and NS3_ARGS are the same (NS3_REUSE=0 reruns them).
# Raw results stay in OUTDIR (default a temporary directory): per case the
# input files, ns-3's fct.txt and summary, syncsim's CSV and fct.txt and
# their comparison (the ideal FCT recomputed for both: qp_finish's). Runs already there are kept, so an interrupted
# comparison resumes. ns-3 takes about 8 CPU-seconds on the sample and
# a few CPU-minutes on each 500-flow fat-tree case; two run at a time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

# ---- syncsim's side: the names its file readers take (set these if they
# ---- differ once topology_file= and flows_file= are on main).
SYNCSIM_EXPERIMENT=${SYNCSIM_EXPERIMENT:-background}
SYNCSIM_TOPOLOGY_PARAM=${SYNCSIM_TOPOLOGY_PARAM:-topology_file}
SYNCSIM_FLOWS_PARAM=${SYNCSIM_FLOWS_PARAM:-flows_file}
SYNCSIM_FCT_PARAM=${SYNCSIM_FCT_PARAM:-fct_out} # where it writes its fct.txt
# Simulated time of each run, ms: arrivals stop at its end (the sample's
# flows start at 2 s and end by 2.04 s in ns-3).
SYNCSIM_DURATION_SAMPLE=${SYNCSIM_DURATION_SAMPLE:-2100}
SYNCSIM_DURATION_FT=${SYNCSIM_DURATION_FT:-100}
# The settings matched to ns-3's below: K and buffer at every switch port,
# marking at K at the host NICs too (ns-3 needs it to bound its windows;
# see filerun.cc), syncsim's default CWR (hold) = ns-3's prr-linux + bytes.
SYNCSIM_SETS=${SYNCSIM_SETS:-"ecn_k_pkts=65 buffer_kb=256 nic_ecn_k_pkts=65 dctcp_cwr=hold warmup_ms=0"}
# ---- ns-3's side.
# FCT from the established connection to the sender's last ACK, as
# syncsim's fct_out (which opens no connection) counts it.
NS3_ARGS=${NS3_ARGS:-"--ecn_k_pkts=65 --buffer_kb=256 --host_k_pkts=65 --recovery=prr-linux --ca=bytes --fct_from=connect --fct_end=ack"}
# ---- the fat-tree case.
FT_K=${FT_K:-8}
FT_RATE=${FT_RATE:-100Gbps}
FT_DELAY=${FT_DELAY:-0.001ms}
FT_FLOWS=${FT_FLOWS:-500}
FT_LOAD=${FT_LOAD:-0.3}
FT_SEEDS=${FT_SEEDS:-"1 2"}
# CASES (space-separated: sample, ft8-s1, ...) runs a subset; SKIP_SYNCSIM=1
# runs ns-3 only.
CASES=${CASES:-"sample $(for s in $FT_SEEDS; do printf 'ft%s-s%s ' "$FT_K" "$s"; done)"}

out=${1:-$(mktemp -d)}
mkdir -p "$out"
if [[ ! -f /usr/include/ns3/tcp-dctcp.h ]]; then
	echo "h2h.sh: ns-3 headers not found; install them with: apt-get install -y ns3 libns3-dev" >&2
	exit 1
fi
build=${NS3_BUILD:-${TMPDIR:-/tmp}/syncsim-ns3}
mkdir -p "$build"
bin=$build/filerun
if [[ ! -x $bin || $here/filerun.cc -nt $bin || $here/dctcp-models.h -nt $bin ]]; then
	g++ -O2 -std=c++17 -o "$bin" "$here/filerun.cc" \
		-lns3-core -lns3-network -lns3-internet -lns3-point-to-point \
		-lns3-applications -lns3-traffic-control
fi

# Inputs of every case: OUT/CASE.topo and OUT/CASE.flows. A case whose
# inputs changed loses its earlier results.
for c in $CASES; do
	t=$out/$c.new
	case $c in
	sample)
		cp "$here/hpcc-sample/topology.txt" "$t.topo"
		cp "$here/hpcc-sample/flow.txt" "$t.flows"
		;;
	ft*-s*)
		k=${c#ft}
		k=${k%%-*}
		s=${c##*-s}
		if ! [[ $k =~ ^[0-9]+$ && $s =~ ^[0-9]+$ ]]; then
			echo "h2h.sh: case '$c' is not sample or ftK-sSEED" >&2
			exit 2
		fi
		python3 "$here/fattree_topology.py" --k "$k" --rate "$FT_RATE" --delay "$FT_DELAY" -o "$t.topo"
		python3 "$here/websearch_flows.py" --topology "$t.topo" --flows "$FT_FLOWS" \
			--load "$FT_LOAD" --seed "$s" -o "$t.flows"
		;;
	*)
		echo "h2h.sh: case '$c' is not sample or ftK-sSEED" >&2
		exit 2
		;;
	esac
	if ! cmp -s "$t.topo" "$out/$c.topo" || ! cmp -s "$t.flows" "$out/$c.flows"; then
		rm -f "$out/$c".ns3.* "$out/$c".syncsim.* "$out/$c".compare.txt
		mv "$t.topo" "$out/$c.topo"
		mv "$t.flows" "$out/$c.flows"
	fi
	rm -f "$t.topo" "$t.flows"
	# ns-3's kept results (h2h-results/) stand in for a run on the same
	# inputs with the same arguments; NS3_REUSE=0 reruns ns-3.
	kept=$here/h2h-results
	if [[ ${NS3_REUSE:-1} == 1 && ! -s $out/$c.ns3.out && -s $kept/$c.ns3.out &&
		$(cat "$kept/ns3-args.txt") == "$NS3_ARGS" ]] &&
		(cd "$out" && grep -E " ($c\.topo|$c\.flows)\$" "$kept/inputs.sha256" | sha256sum -c --quiet --strict - >/dev/null 2>&1); then
		gunzip -c "$kept/$c.ns3.fct.gz" >"$out/$c.ns3.fct"
		cp "$kept/$c.ns3.out" "$out/$c.ns3.out"
		echo "h2h.sh: $c: ns-3's results kept in h2h-results/ (same inputs and arguments)" >&2
	fi
done

# ns-3, two cases at a time; a case whose summary exists is kept.
printf '%s\n' $CASES | xargs -P 2 -I{} bash -c '
	c={}; o="'"$out"'/$c"
	if [[ ! -s $o.ns3.out ]]; then
		if ! "'"$bin"'" --topology="$o.topo" --flows="$o.flows" --fct="$o.ns3.fct" '"$NS3_ARGS"' >"$o.ns3.out.tmp"; then
			echo "h2h.sh: ns-3 failed on case $c" >&2
			exit 255
		fi
		mv "$o.ns3.out.tmp" "$o.ns3.out"
	fi'

# syncsim, one case at a time (its runs use both cores' worth of nothing
# more than one thread); pending when its readers are not there.
syncsim_ok=0
if [[ -z ${SKIP_SYNCSIM:-} ]]; then
	syncsim=${SYNCSIM:-$out/syncsim}
	if [[ -z ${SYNCSIM:-} ]]; then
		(cd "$root" && go build -o "$syncsim" ./cmd/syncsim)
	fi
	sets=()
	for kv in $SYNCSIM_SETS; do sets+=(--set "$kv"); done
	first=${CASES%% *}
	if "$syncsim" run "$SYNCSIM_EXPERIMENT" --dry-run "${sets[@]}" \
		--set "$SYNCSIM_TOPOLOGY_PARAM=$out/$first.topo" --set "$SYNCSIM_FLOWS_PARAM=$out/$first.flows" \
		--set "$SYNCSIM_FCT_PARAM=$out/$first.syncsim.fct.txt" >/dev/null 2>"$out/syncsim-dry-run.err"; then
		syncsim_ok=1
	else
		echo "h2h.sh: syncsim does not take these files yet (pending): $(head -1 "$out/syncsim-dry-run.err")" >&2
	fi
fi
if ((syncsim_ok)); then
	for c in $CASES; do
		o=$out/$c
		if [[ ! -s $o.syncsim.cpu ]]; then
			rm -f "$o.syncsim.csv" "$o.syncsim.csv.json" "$o.syncsim.fct.txt"
			d=$SYNCSIM_DURATION_FT
			[[ $c == sample ]] && d=$SYNCSIM_DURATION_SAMPLE
			/usr/bin/time -f '%U %S' -o "$o.syncsim.time" "$syncsim" run "$SYNCSIM_EXPERIMENT" "${sets[@]}" \
				--set "$SYNCSIM_TOPOLOGY_PARAM=$o.topo" --set "$SYNCSIM_FLOWS_PARAM=$o.flows" \
				--set "$SYNCSIM_FCT_PARAM=$o.syncsim.fct.txt" --set duration_ms="$d" \
				--csv "$o.syncsim.csv" --quiet >"$o.syncsim.out"
			awk '{ printf "%.2f\n", $1 + $2 }' "$o.syncsim.time" >"$o.syncsim.cpu"
		fi
	done
fi

for c in $CASES; do
	o=$out/$c
	n=$(head -1 "$o.flows" | awk '{ print $1 }')
	runs=(--run ns-3 "$o.ns3.fct" "$(awk '$1 == "cpu_s" { print $2 }' "$o.ns3.out")")
	if ((syncsim_ok)); then
		runs+=(--run syncsim "$o.syncsim.fct.txt" "$(cat "$o.syncsim.cpu")")
	fi
	echo "== $c ($(head -1 "$o.topo" | awk '{ print $1 - $2 " hosts, " $2 " switches, " $3 " links" }'), $n flows)"
	python3 "$here/fct_compare.py" --topology "$o.topo" --flows "$n" "${runs[@]}" | tee "$o.compare.txt"
	echo
done
echo "raw results: $out" >&2
