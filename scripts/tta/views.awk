# The ratio of two metrics of the same run, seed by seed, summarised per
# point as median [min-max] over the seeds, in a Markdown table: how much
# later (or sooner) one score reaches the target than another on the same
# training run. syncsim summarise compares a metric across the values of
# a parameter; this compares two metrics of one row.
#
#   awk -v keys=partition,scheme -v den=tta_avg_s \
#       -v nums=tta_worker_mean_s,tta_worker_min_s -f views.awk A.csv [B.csv ...]
#
# keys: the parameter columns that make a point (in the table's order);
# den: the metric below the line; nums: the metrics above it, one column
# each; below (optional, as summarise --count-below): each cell also says
# on how many of its runs the ratio lies below that value ("7/10 below",
# "1 at" for runs exactly at it). The CSVs are sweeps of one experiment (their headers may differ in
# order). A run where either metric is NaN (the target never reached) is
# left out and counted in the last column. The median of an even count is
# the mean of the middle two, as in syncsim summarise. POSIX awk (mawk
# runs it).
BEGIN {
	FS = ","
	nk = split(keys, key, ",")
	nn = split(nums, num, ",")
}
FNR == 1 {
	delete col
	for (i = 1; i <= NF; i++) col[$i] = i
	for (i = 1; i <= nk; i++) if (!(key[i] in col)) { print FILENAME ": no column " key[i] > "/dev/stderr"; exit 2 }
	for (i = 1; i <= nn; i++) if (!(num[i] in col)) { print FILENAME ": no column " num[i] > "/dev/stderr"; exit 2 }
	if (!(den in col)) { print FILENAME ": no column " den > "/dev/stderr"; exit 2 }
	next
}
{
	p = $col[key[1]]
	for (i = 2; i <= nk; i++) p = p SUBSEP $col[key[i]]
	if (!(p in seen)) { seen[p] = 1; order[++np] = p }
	d = $col[den]
	for (i = 1; i <= nn; i++) {
		x = $col[num[i]]
		if (d == "NaN" || x == "NaN" || d + 0 == 0) { undef[p, i]++; continue }
		vals[p, i, ++cnt[p, i]] = x / d
	}
}
# sig writes x with three significant digits, as the tables do.
function sig(x,   a, e, d) {
	a = x < 0 ? -x : x
	if (a == 0) return "0"
	e = 0
	while (a >= 10) { a /= 10; e++ }
	while (a < 1) { a *= 10; e-- }
	d = 2 - e
	if (d < 0) d = 0
	return sprintf("%." d "f", x)
}
# cell sorts the values of point p, metric i and returns median [min-max].
function cell(p, i,   n, j, k, t, v, med) {
	n = cnt[p, i] + 0
	if (n == 0) return "-"
	for (j = 1; j <= n; j++) v[j] = vals[p, i, j]
	for (j = 2; j <= n; j++) {
		t = v[j]
		for (k = j - 1; k >= 1 && v[k] > t; k--) v[k + 1] = v[k]
		v[k + 1] = t
	}
	med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	return sig(med) " [" sig(v[1]) "-" sig(v[n]) "]" count(v, n)
}
# count says on how many of the n sorted values v lie below the value
# below, and on how many exactly at it; nothing when below is not set.
function count(v, n,   j, lo, at) {
	if (below == "") return ""
	lo = at = 0
	for (j = 1; j <= n; j++) {
		if (v[j] < below + 0) lo++
		else if (v[j] == below + 0) at++
	}
	return ", " lo "/" n " below" (at ? ", " at " at" : "")
}
END {
	line = "|"
	sep = "|"
	for (i = 1; i <= nk; i++) { line = line " " key[i] " |"; sep = sep "---|" }
	for (i = 1; i <= nn; i++) { line = line " " num[i] " / " den " |"; sep = sep "---|" }
	print line " runs without a value |"
	print sep "---|"
	for (j = 1; j <= np; j++) {
		p = order[j]
		split(p, kv, SUBSEP)
		line = "|"
		for (i = 1; i <= nk; i++) line = line " " kv[i] " |"
		u = 0
		for (i = 1; i <= nn; i++) { line = line " " cell(p, i) " |"; u += undef[p, i] }
		print line " " u " |"
	}
}
