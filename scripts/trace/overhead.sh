#!/usr/bin/env bash
# What --trace costs (docs/manual.md, "Timelines"): the CPU seconds (user +
# system, /usr/bin/time -v) of one host-collective run (dssync, ring
# all-reduce at packet fidelity) and one INA run (ina-testbed, PA-ATP with
# layer-wise compute), each without and with --trace, and the sizes of the
# trace and its exposed-time CSV. About 40 CPU-seconds.
#
#   scripts/trace/overhead.sh [OUTDIR]   (SYNCSIM: the binary, default syncsim)
set -euo pipefail
syncsim=${SYNCSIM:-syncsim}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
host=(run dssync --set scheme=allreduce --set fidelity=packet --set iterations=8 --quiet)
ina=(run ina-testbed --set protocol=pa-atp --set compute_ms=5 --set iterations=6 --quiet)
cpu() { # cpu LOG: user + system seconds
	awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.2f", u + s}' "$1"
}
printf '| run | CPU s without --trace | CPU s with --trace | trace | exposed-time CSV |\n|---|---|---|---|---|\n'
for name in host ina; do
	declare -n cmd=$name
	/usr/bin/time -v "$syncsim" "${cmd[@]}" >/dev/null 2>"$out/$name.plain.time"
	/usr/bin/time -v "$syncsim" "${cmd[@]}" --force --trace "$out/$name.json" >/dev/null 2>"$out/$name.trace.time"
	printf '| %s | %s | %s | %s KB | %s rows |\n' "${cmd[*]:1}" "$(cpu "$out/$name.plain.time")" "$(cpu "$out/$name.trace.time")" \
		"$(( $(stat -c %s "$out/$name.json") / 1024 ))" "$(( $(wc -l < "$out/$name.comm.csv") - 1 ))"
done
