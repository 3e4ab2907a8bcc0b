# Which workers meet in a crew-training run's partial reduces, from the
# groups series that --series-dir writes (crew-training_<point>_<trial>_
# groups.csv: one row per member of every P as it forms, columns time_s,
# pid, worker, ready_s, rounds). One Markdown row per file:
#
#   awk -f groups.awk DIR/crew-training_*_groups.csv
#
# formations: the partial reduces formed; distinct: the distinct sets P
# among them; final: the sets of the last floor(n/p) formations (n the
# workers seen, p the members of a P); locked_since_s: the time of the
# first formation after the last one whose set is not among the final
# ones, and tail the formations from then on (all of them: the run never
# formed another set; a short tail: the sets were still mixing at the
# end); sep_s: over the tail, the time from the last member of one P
# becoming ready to the first member of the next (never negative: the
# queue pops in order), min and median, which a compute time would have to
# undercut for a worker to join an earlier set. POSIX awk (mawk runs it).
BEGIN {
	FS = ","
	print "| file | formations | distinct | locked_since_s | tail | sep_s min, median | final |"
	print "|---|---|---|---|---|---|---|"
}
FNR == 1 {
	if (NR > 1) report()
	delete col
	for (i = 1; i <= NF; i++) col[$i] = i
	if (!("time_s" in col) || !("pid" in col) || !("worker" in col) || !("ready_s" in col)) {
		print FILENAME ": not a groups series (want columns time_s, pid, worker, ready_s)" > "/dev/stderr"
		exit 2
	}
	file = FILENAME
	sub(/.*\//, "", file)
	nf = 0; n = 0; last = ""
	delete set; delete at; delete size; delete lo; delete hi
	next
}
{
	pid = $col["pid"] + 0
	if (pid != last) {
		nf++; last = pid; at[nf] = $col["time_s"]; set[nf] = ""; size[nf] = 0
		lo[nf] = hi[nf] = $col["ready_s"] + 0
	}
	if ($col["ready_s"] + 0 < lo[nf]) lo[nf] = $col["ready_s"] + 0
	if ($col["ready_s"] + 0 > hi[nf]) hi[nf] = $col["ready_s"] + 0
	w[++size[nf]] = $col["worker"] + 0
	if ($col["worker"] + 1 > n) n = $col["worker"] + 1
	# members sorted: insertion into the set's list
	set[nf] = sorted(w, size[nf])
}
END {
	if (NR > 0) report()
}

function sorted(a, k,    i, j, t, b, s) {
	for (i = 1; i <= k; i++) b[i] = a[i]
	for (i = 2; i <= k; i++) for (j = i; j > 1 && b[j - 1] > b[j]; j--) { t = b[j]; b[j] = b[j - 1]; b[j - 1] = t }
	s = b[1]
	for (i = 2; i <= k; i++) s = s " " b[i]
	return s
}

function report(    k, i, j, t, fin, seen, distinct, since, finals, sep, m, med) {
	if (nf == 0) { print "| " file " | 0 | 0 | - | 0 | - | - |"; return }
	k = int(n / size[nf]); if (k < 1) k = 1
	if (k > nf) k = nf
	delete fin; finals = ""
	for (i = nf - k + 1; i <= nf; i++) if (!(set[i] in fin)) { fin[set[i]] = 1; finals = finals (finals == "" ? "" : "; ") "{" set[i] "}" }
	delete seen; distinct = 0; since = 1
	for (i = 1; i <= nf; i++) {
		if (!(set[i] in seen)) { seen[set[i]] = 1; distinct++ }
		if (!(set[i] in fin)) since = i + 1
	}
	delete sep; m = 0
	for (i = since + 1; i <= nf; i++) {
		sep[++m] = lo[i] - hi[i - 1]
		for (j = m; j > 1 && sep[j - 1] > sep[j]; j--) { t = sep[j]; sep[j] = sep[j - 1]; sep[j - 1] = t }
	}
	med = "-"
	if (m > 0) med = sprintf("%.3f, %.3f", sep[1], m % 2 ? sep[(m + 1) / 2] : (sep[m / 2] + sep[m / 2 + 1]) / 2)
	printf "| %s | %d | %d | %.1f | %d | %s | %s |\n", file, nf, distinct, at[since], nf - since + 1, med, finals
}
