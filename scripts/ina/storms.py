#!/usr/bin/env python3
"""storms.py: each INA job's stalls, read from the job series that
`syncsim run ina-leafspine ... --series-dir DIR` writes
(DIR/ina-leafspine_0_0_jobs.csv, a row per job every series_us).

    scripts/ina/storms.py [--until MS] NAME=DIR [NAME=DIR ...]

A stall is a stretch of rows in which the job's workers have cut their
congestion windows to the floor (cwd_mean <= 2 packets) and all but one
percent of the gradients it has in flight are GACKed (inflight > 0 and
inflight_gacked >= 0.99 inflight; AWD's +1 a round lets a few new ones
out): the switch or the PS has taken them and the job waits for results,
which mostly only a timeout brings back. For each run and job, one row: the longest
stall and the time in stalls (ms, counted from the row times, so to the
series' resolution), the job's timeouts and retransmits over the stalls
and the resends per timeout there (a fixed timer that resends a window of
GACKed sequences every expiry shows as hundreds per timeout: a resend
storm), the job's drops over the stalls against its drops in all, and the
job's progress at the end of the series (or at --until), and the most
GACKed gradients it held in flight at a row (the backlog a stall starts
from); then a row
"all" for the run: the longest stall, the sums, the mean progress, the most GACKed. Markdown.
"""
import sys

import jobseries

COLS = ("t_ms", "job", "progress", "cwd_mean", "inflight", "inflight_gacked", "timeouts", "retransmits", "drops")


def read(path, until):
    rows = {}
    for r in jobseries.rows("storms.py", path, until, COLS):
        rows.setdefault(r.pop("job"), []).append(r)
    if not rows:
        sys.exit("storms.py: %s: no rows" % path)
    return rows


def stalled(r):
    return r["cwd_mean"] <= 2 and r["inflight"] > 0 and r["inflight_gacked"] >= 0.99 * r["inflight"]


def job(rows):
    """The stalls of one job's rows: longest (ms), total (ms), timeouts,
    retransmits and drops over them, drops in all, last progress, most
    GACKed in flight."""
    longest = total = 0.0
    to = rt = dr = 0.0
    start = None
    for prev, cur in zip(rows, rows[1:]):
        dt = cur["t_ms"] - prev["t_ms"]
        if stalled(prev):
            if start is None:
                start = prev["t_ms"]
            total += dt
            to += cur["timeouts"] - prev["timeouts"]
            rt += cur["retransmits"] - prev["retransmits"]
            dr += cur["drops"] - prev["drops"]
            longest = max(longest, cur["t_ms"] - start)
        else:
            start = None
    last = rows[-1]
    return longest, total, to, rt, dr, last["drops"], last["progress"], max(r["inflight_gacked"] for r in rows)


def fmt(x):
    return "%.1f" % x if abs(x) < 100 else "{:,.0f}".format(x)


def main(argv):
    until, runs = jobseries.parse("storms.py", "--until", argv, __doc__)
    series = [(name, read(path, until)) for name, path in runs]  # every file read before a line is written
    print("| run | job | longest stall (ms) | in stalls (ms) | timeouts in stalls | resends in stalls | "
          "resends per timeout | drops in stalls / in all | progress | most GACKed in flight |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, jobs in series:
        every = []
        for j, rows in sorted(jobs.items()):
            every.append(job(rows))
            line(name, str(j), every[-1])
        # The run as a whole: the longest stall, sums, the mean progress.
        cols = list(zip(*every))
        line(name, "all", (max(cols[0]), sum(cols[1]), sum(cols[2]), sum(cols[3]), sum(cols[4]), sum(cols[5]),
                           sum(cols[6]) / len(every), max(cols[7])))


def line(name, j, st):
    longest, total, to, rt, dr, drops, prog, gacked = st
    per = fmt(rt / to) if to > 0 else "-"
    print("| %s | %s | %s | %s | %s | %s | %s | %s / %s | %.3f | %s |" % (
        name, j, fmt(longest), fmt(total), fmt(to), fmt(rt), per, fmt(dr), fmt(drops), prog, fmt(gacked)))


if __name__ == "__main__":
    main(sys.argv[1:])
