# shellcheck shell=bash
# What every scripts/<family>/reproduce.sh shares. A family script defines
# one function per figure or table (each runs its sweeps with `sweep` and
# writes its tables with `table`), lists them in the array `figures`, and
# ends with `main "$@"`:
#
#   scripts/<family>/reproduce.sh [OUTDIR [FIGURE...]]
#
# runs the figures named (default: all of them) in OUTDIR (default:
# <family>-repro). Each sweep writes NAME.csv, its provenance NAME.csv.json
# and its cost NAME.time (CPU seconds user and system, wall seconds, peak
# KB); each table NAME.md (a heading, the summarise command and its
# Markdown table), which the family's docs page quotes. At the end
# costs.md lists the CPU of every sweep in OUTDIR.
#
# Environment:
#   SYNCSIM   the syncsim binary (default: syncsim on the PATH, else one
#             built from this repository into OUTDIR/.syncsim)
#   PARALLEL  runs at a time (default 2; results do not depend on it)
#   RESUME=1  continue the CSVs of an interrupted invocation (--resume)
#             instead of replacing them (--force); NAME.time then adds
#             the resumed CPU to what it held
#   EXTRA     more flags for every sweep, e.g. EXTRA="--set bw_model=walk"
#             (use another OUTDIR for such a variant)
# Run long ones under `nice -n 10` on a shared machine.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

say() { printf '%s\n' "$*" >&2; }
die() { printf 'reproduce: %s\n' "$*" >&2; exit 1; }

# sweep NAME SWEEP-FLAGS...: runs `syncsim sweep SWEEP-FLAGS --csv NAME.csv`.
sweep() {
	local name=$1
	shift
	local mode=--force
	[[ -n ${RESUME:-} ]] && mode=--resume
	# shellcheck disable=SC2086 # EXTRA is a list of flags
	local cmd=("$SYNCSIM" sweep "$@" ${EXTRA:-} --csv "$name.csv" --parallel "${PARALLEL:-2}" "$mode" --quiet)
	say "$name: syncsim sweep $* ${EXTRA:-} --csv $name.csv"
	if [[ -x /usr/bin/time ]]; then
		# A resumed sweep adds its cost to the interrupted one's, so
		# costs.md has the CPU of all the rows, not of the last few.
		local tfile=$name.time
		[[ -n ${RESUME:-} && -s $name.time ]] && tfile=$name.time.more
		/usr/bin/time -o "$tfile" -f "%U %S %e %M" "${cmd[@]}"
		if [[ $tfile != "$name.time" ]]; then
			awk 'NR == FNR { u = $1; s = $2; e = $3; m = $4; next }
				{ printf "%.2f %.2f %.2f %d\n", u + $1, s + $2, e + $3, (m > $4 ? m : $4) }' "$name.time" "$tfile" >"$name.time.sum"
			mv "$name.time.sum" "$name.time"
			rm "$tfile"
		fi
	else
		local t0=$SECONDS
		"${cmd[@]}"
		echo "NaN NaN $((SECONDS - t0)) NaN" >"$name.time"
	fi
}

# table NAME TITLE SUMMARISE-ARGS...: writes NAME.md with TITLE, the
# command and the table of `syncsim summarise SUMMARISE-ARGS`.
table() {
	local name=$1 title=$2
	shift 2
	{
		printf '### %s\n\n`syncsim summarise %s`\n\n' "$title" "$*"
		"$SYNCSIM" summarise "$@"
	} >"$name.md"
	say "$name.md: $title"
}

# append_tables NAME PART...: appends the tables PART.md to NAME.md, a
# blank line before each, and removes them.
append_tables() {
	local name=$1 part
	shift
	for part in "$@"; do
		printf '\n' >>"$name.md"
		cat "$part.md" >>"$name.md"
		rm "$part.md"
	done
}

# costs writes costs.md: the CPU and peak memory of every sweep here.
costs() {
	{
		printf '| sweep | rows | CPU s (user + system) | wall s | peak MB |\n|---|---|---|---|---|\n'
		local f name u s e m rows
		for f in *.time; do
			[[ -e $f ]] || continue
			name=${f%.time}
			# A sweep still running (or killed) has an empty .time file.
			[[ -s $f && -e $name.csv ]] || continue
			read -r u s e m <"$f" || continue
			rows=$(($(wc -l <"$name.csv") - 1))
			printf '| %s | %s | %s | %s | %s |\n' "$name" "$rows" \
				"$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.1f", u + s }')" "$e" "$(awk -v m="$m" 'BEGIN { printf "%.0f", m / 1024 }')"
		done
	} >costs.md
}

# main [OUTDIR [FIGURE...]]: runs the selected functions of `figures`.
main() {
	local out=${1:-$default_out}
	[[ $# -gt 0 ]] && shift
	local selected=("$@")
	[[ ${#selected[@]} -gt 0 ]] || selected=("${figures[@]}")
	local f
	for f in "${selected[@]}"; do
		[[ " ${figures[*]} " == *" $f "* ]] || die "unknown figure $f (this script has: ${figures[*]})"
	done
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	if [[ -z ${SYNCSIM:-} ]]; then
		if command -v syncsim >/dev/null; then
			SYNCSIM=syncsim
		else
			say "building syncsim into $out/.syncsim"
			(cd "$repo" && go build -o "$out/.syncsim" ./cmd/syncsim)
			SYNCSIM=$out/.syncsim
		fi
	fi
	if [[ $SYNCSIM == */* ]]; then
		SYNCSIM=$(cd "$(dirname "$SYNCSIM")" && pwd)/$(basename "$SYNCSIM")
	fi
	cd "$out"
	for f in "${selected[@]}"; do
		"$f"
	done
	costs
	say "done: tables in $out/*.md, CPU per sweep in $out/costs.md"
}
