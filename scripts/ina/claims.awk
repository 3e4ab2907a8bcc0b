# One row of the claims table (scripts/ina/claims.sh) from the tidy output
# of `syncsim summarise ... --where seed=S --format csv`, one file per seed.
# A cell (a point and a comparison) has one value per seed, and k of n
# counts the seeds on which the claim's direction holds. A cell's verdict:
#
#   holds              on every seed
#   fails              the opposite on every seed
#   within seed noise  otherwise (a paired change whose [min, max] straddles 0)
#
# Variables (awk -v):
#   kind   lower, higher: the paired changes summarised (--of or --vs with
#          --change percent) should be below (above) 0; close: they should
#          straddle 0 (the two are level); gain: PA-ATP's paired change
#          against each protocol should fall from the first to the last
#          value of the parameter key, seed by seed (its gain grows);
#          least, most: at every point the rows with key (param=value)
#          should have the lowest (highest) value
#   key    lower, higher, close: the parameter along which a comparison's
#          cells are listed ("-": none); gain: that parameter; least,
#          most: param=value
#   text, paper, measured: the row's first, second and last cells; the
#          numbers in paper ("-39 / -19 / -14%") are set beside the
#          comparisons in order when there are as many, each against the
#          cell of its comparison with the largest median effect (the
#          paper's "up to")
#   det    1 when every result of the CSVs is the same on every seed (the
#          cost columns events, events_per_s and wall_s aside); seedtext
#          names the seeds
# The output is one Markdown row, or nothing when no cell has a value.
# POSIX awk (mawk runs it).

function pretty(v) { return (v in names) ? names[v] : v }
function isnum(v) { return v ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
function pct(v) { return sprintf("%+.0f", v) }
function join(a, b, sep) { return a == "" ? b : a sep b }

# stats(id, n): the median, min and max of vals[id, 1..n] (the median of
# an even count is the mean of the middle two, as syncsim summarise's).
function stats(id, n,    i, j, t, s) {
	for (i = 1; i <= n; i++) s[i] = vals[id, i]
	for (i = 2; i <= n; i++) {
		t = s[i]
		for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]
		s[j + 1] = t
	}
	smin = s[1]
	smax = s[n]
	smed = n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
}

# klass(id, n, dir): H, F or N for vals[id, 1..n] under direction dir
# (lower, higher, close), and k, the seeds on which it holds.
function klass(id, n, dir,    i, lo, hi) {
	lo = hi = 0
	for (i = 1; i <= n; i++) {
		if (vals[id, i] < 0) lo++
		if (vals[id, i] > 0) hi++
	}
	if (dir == "close") {
		k = lo
		return lo == n || hi == n ? "F" : "H"
	}
	k = dir == "lower" ? lo : hi
	if (k == n) return "H"
	if ((dir == "lower" ? hi : lo) == n) return "F"
	return "N"
}

# seedlist(ks, ns): "4 of 5 seeds"; for several cells "5, 4 of 5 seeds"
# (the same count of seeds), "5 of 5 seeds each" (the same k too), or
# "4 of 5, 1 of 2 seeds".
function seedlist(ks, ns,    a, b, m, i, same, each, out) {
	m = split(ks, a, " ")
	split(ns, b, " ")
	same = 1
	for (i = 2; i <= m; i++) if (b[i] != b[1]) same = 0
	each = m > 1 && same
	for (i = 2; i <= m; i++) if (a[i] != a[1]) each = 0
	if (each) return a[1] " of " b[1] " seeds each"
	out = ""
	for (i = 1; i <= m; i++) out = join(out, a[i] (same ? "" : " of " b[i]), ", ")
	return out (same ? " of " b[1] : "") " seed" (b[1] == 1 && m == 1 ? "" : "s")
}

# classes(nc, verbs, what): the verdict over cells 1..nc of cls[], kk[],
# nn[] and their labels lab[]: the points of each class with their seeds
# (what says what the seeds counted did, when not that the claim held).
function classes(nc, verbs, what,    w, c, cl, i, pts, ks, ns, out) {
	split(verbs, w, ",")
	out = ""
	for (c = 1; c <= 3; c++) {
		cl = substr("HNF", c, 1)
		pts = ks = ns = ""
		for (i = 1; i <= nc; i++) {
			if (cls[i] != cl) continue
			pts = join(pts, lab[i], ", ")
			ks = join(ks, kk[i], " ")
			ns = join(ns, nn[i], " ")
		}
		if (ks == "") continue
		out = join(out, (cl == "H" ? w[1] : cl == "F" ? w[2] : "within seed noise") (pts == "" ? "" : " at " pts) " (" what seedlist(ks, ns) ")", "; ")
	}
	return out
}

BEGIN {
	FS = ","
	m = split("jct_a_ms job_A jct_b_ms job_B byteps BytePS switchml SwitchML atp ATP strawasyn StrawAsyn strawasyn-pc +PC strawasyn-al +AL pa-atp PA-ATP cachefollower CF hadoop Hadoop resnet50 ResNet50 vgg19 VGG19 vgg11 VGG11 alexnet AlexNet", a, " ")
	for (i = 1; i < m; i += 2) {
		names[a[i]] = a[i + 1]
		gsub(/_/, " ", names[a[i]])
	}
	if (kind == "least" || kind == "most") {
		split(key, a, "=")
		subj = a[1]
		subjv = a[2]
	}
}

FNR == 1 {
	nseed++
	for (i = 1; i <= NF; i++) col[$i] = i
	np = col["metric"] - 1
	for (i = 1; i <= np; i++) pname[i] = $i
	next
}

{
	if (!isnum($col["median"])) next
	v = $col["median"] + 0
	if (kind == "least" || kind == "most") {
		if ($col["statistic"] != "value") next
		pt = ent = ""
		for (i = 1; i <= np; i++) {
			if (pname[i] == subj) ent = $i
			else pt = pt SUBSEP $i
		}
		if (!(pt in pidx)) {
			pidx[pt] = ++npt
			nfld = split(substr(pt, 2), f, SUBSEP)
			for (i = 1; i <= nfld; i++) pf[npt, i] = f[i]
		}
		p = pidx[pt]
		if (!((p, ent) in seen)) {
			seen[p, ent] = 1
			ne[p]++
			ents[p, ne[p]] = ent
		}
		ov[p, ent, nseed] = v
		has[p, ent, nseed] = 1
		next
	}
	if ($col["statistic"] != "percent") next
	id = ""
	for (i = 1; i <= np; i++) id = id SUBSEP $i
	id = id SUBSEP $col["metric"] SUBSEP $col["against"]
	if (!(id in cidx)) {
		cidx[id] = ++ncell
		for (i = 1; i <= np; i++) cf[ncell, i] = $i
		cf[ncell, np + 1] = $col["metric"]
		cf[ncell, np + 2] = $col["against"]
	}
	cv[cidx[id], nseed] = v
	chas[cidx[id], nseed] = 1
}

END {
	if (kind == "least" || kind == "most") order()
	else if (ncell > 0) compare()
}

# compare: lower, higher, close and gain. The fields that vary between
# cells, but the axis (key), name a comparison; its cells run along the axis.
function compare(    i, j, f, c, g, gid, label, axf, nf, ours, verd, vv, ax, np0, pv, best, bi, bmin, bmax, note, n, m0, m1, x0, x1, cl) {
	nf = np + 2
	axf = 0
	for (f = 1; f <= np; f++) if (pname[f] == key) axf = f
	for (f = 1; f <= nf; f++) {
		vary[f] = 0
		for (c = 2; c <= ncell; c++) if (cf[c, f] != cf[1, f]) vary[f] = 1
	}
	for (c = 1; c <= ncell; c++) {
		gid = label = ""
		for (f = 1; f <= nf; f++) {
			if (!vary[f] || f == axf) continue
			gid = gid SUBSEP cf[c, f]
			label = join(label, (f == nf ? "vs " : "") pretty(cf[c, f]), " ")
		}
		if (!(gid in gidx)) {
			gidx[gid] = ++ngroup
			glabel[ngroup] = label
		}
		g = gidx[gid]
		gcells[g]++
		gcell[g, gcells[g]] = c
		gax[g, gcells[g]] = axf ? pretty(cf[c, axf]) : ""
	}
	np0 = split(paper, pv, "/")
	for (i = 1; i <= np0; i++) {
		# (mawk 1.3.4 matches an optional sign only sometimes: look behind)
		if (match(pv[i], /[0-9]+[.]?[0-9]*/)) pv[i] = (substr(pv[i], RSTART - 1, 1) == "-" ? "-" : "") substr(pv[i], RSTART, RLENGTH)
		else np0 = 0
	}
	if (np0 != ngroup) np0 = 0
	ours = verd = ""
	for (g = 1; g <= ngroup; g++) {
		if (kind == "gain") {
			x0 = gcell[g, 1]
			x1 = gcell[g, gcells[g]]
			n = 0
			for (i = 1; i <= nseed; i++) if (chas[x0, i] && chas[x1, i]) {
				n++
				vals["d", n] = cv[x1, i] - cv[x0, i]
				vals["a", n] = cv[x0, i]
				vals["b", n] = cv[x1, i]
			}
			if (n == 0) continue
			stats("a", n)
			m0 = smed
			stats("b", n)
			m1 = smed
			cl = klass("d", n, "lower")
			ours = join(ours, glabel[g] " " pct(m0) " to " pct(m1) "%", "; ")
			cls[1] = cl
			kk[1] = k
			nn[1] = n
			lab[1] = ""
			verd = join(verd, glabel[g] ": " classes(1, "grows,shrinks", "grows on "), "; ")
			continue
		}
		vv = ""
		best = ""
		nc = 0
		for (j = 1; j <= gcells[g]; j++) {
			c = gcell[g, j]
			n = 0
			for (i = 1; i <= nseed; i++) if (chas[c, i]) vals["c", ++n] = cv[c, i]
			if (n == 0) continue
			stats("c", n)
			nc++
			cls[nc] = klass("c", n, kind)
			kk[nc] = k
			nn[nc] = n
			lab[nc] = gax[g, j]
			vv = join(vv, pct(smed), "/")
			if (gcells[g] == 1 && pct(smin) != pct(smax)) vv = vv "% [" pct(smin) ", " pct(smax) "]"
			if (best == "" || (kind == "higher" ? smed > best : smed < best)) {
				best = smed
				bi = j
				bmin = smin
				bmax = smax
			}
		}
		if (nc == 0) continue
		if (vv !~ /\]$/) vv = vv "%"
		ax = ""
		if (gcells[g] > 1) {
			for (j = 1; j <= gcells[g]; j++) ax = join(ax, gax[g, j], "/")
			ax = "at " ax ": "
		}
		ours = join(ours, (glabel[g] == "" ? "" : glabel[g] " ") ax vv, "; ")
		note = ""
		if (np0 && kind != "close") {
			p = pv[g] + 0
			if ((kind == "lower" && p < bmin) || (kind == "higher" && p > bmax))
				note = "short of the paper's " pct(p) "% on every seed"
			else if ((kind == "lower" && p > bmax) || (kind == "higher" && p < bmin))
				note = "beyond the paper's " pct(p) "% on every seed"
			else
				note = "the paper's " pct(p) "% within the seeds' range"
			if (gcells[g] > 1) note = note " at " gax[g, bi]
		}
		if (gcells[g] == 1) lab[1] = ""
		verd = join(verd, (glabel[g] == "" ? "" : glabel[g] ": ") classes(nc, "holds,fails", kind == "close" ? "below on " : "") (note == "" ? "" : ", " note), "; ")
	}
	row(ours, verd)
}

# order: least and most. A point is every field but key's parameter; on
# each seed the key's rows must be strictly below (above) every other.
function order(    p, e, i, n, kx, ext, x, m, bestm, beste, word, exc, out) {
	for (i = 1; i <= nfld; i++) {
		pvary[i] = 0
		for (p = 2; p <= npt; p++) if (pf[p, i] != pf[1, i]) pvary[i] = 1
	}
	exc = ""
	for (p = 1; p <= npt; p++) {
		n = kx = 0
		for (i = 1; i <= nseed; i++) {
			if (!has[p, subjv, i]) continue
			n++
			ext = 1
			for (e = 1; e <= ne[p]; e++) {
				if (ents[p, e] == subjv || !has[p, ents[p, e], i]) continue
				x = ov[p, ents[p, e], i]
				if (kind == "least" ? x <= ov[p, subjv, i] : x >= ov[p, subjv, i]) ext = 0
			}
			kx += ext
		}
		beste = ""
		meds = ""
		for (e = 1; e <= ne[p]; e++) {
			m = 0
			for (i = 1; i <= nseed; i++) if (has[p, ents[p, e], i]) vals["o", ++m] = ov[p, ents[p, e], i]
			if (m == 0) continue
			stats("o", m)
			meds = join(meds, pretty(ents[p, e]) " " sprintf("%.3g", smed), ", ")
			if (beste == "" || (kind == "least" ? smed < bestm : smed > bestm)) {
				bestm = smed
				beste = ents[p, e]
			}
		}
		lab[p] = ""
		for (i = 1; i <= nfld; i++) if (pvary[i]) lab[p] = join(lab[p], pretty(pf[p, i]), " ")
		cls[p] = n == 0 ? "-" : kx == n ? "H" : kx == 0 ? "F" : "N"
		kk[p] = kx
		nn[p] = n
		if (beste != subjv) exc = join(exc, (npt > 1 ? lab[p] " " : "") pretty(beste), ", ")
	}
	word = kind == "least" ? "lowest" : "highest"
	if (exc == "") out = pretty(subjv) " " word " in the median" (npt > 1 ? " at every point" : "")
	else out = pretty(subjv) " " word " in the median but at " exc " (" word " there)"
	if (npt == 1) {
		lab[1] = ""
		out = "medians: " meds
	}
	row(out, classes(npt, "holds,fails", ""))
}

function row(ours, verd) {
	if (ours == "") exit
	if (det) verd = verd "; seed-independent: every result the same on seeds " seedtext
	else if (nseed < 5) verd = verd " (" nseed (nseed == 1 ? " seed" : " seeds") ": no five-seed claim)"
	printf "| %s | %s | %s | %s | %s |\n", text, paper, ours, verd, measured
}
