#!/usr/bin/env python3
"""windows.py: what holds each INA job's sending while it runs, read from
the job series that `syncsim run ina-leafspine ... --series-dir DIR` writes.

    scripts/ina/windows.py [--until MS] NAME=DIR [NAME=DIR ...]

For each run and job, over the rows before the job's progress reaches 1
(and up to --until): the workers' mean window (`cwd_mean`, packets; an ATP
worker's is the sum over its threads), the gradients in flight summed over
the workers (`inflight`) and how many of them a GACK acknowledged
(`inflight_gacked`), as means over those rows; then the run's ECN window
cuts (`ecn_cuts`, summed over DIR/ina-leafspine_0_0_job_summary.csv). A
window that bounds what is in flight shows as in flight close to workers x
window with none GACKed (ATP); a GACK frees the window, so PA-ATP's and
StrawAsyn's in flight runs far above it. Markdown.
"""
import csv
import os
import sys

import jobseries


def means(path, until):
    acc = {}
    for r in jobseries.rows("windows.py", path, until, ("t_ms", "progress", "cwd_mean", "inflight", "inflight_gacked")):
        if r["progress"] >= 1:
            continue
        a = acc.setdefault(r["job"], [0, 0.0, 0.0, 0.0])
        a[0] += 1
        a[1] += r["cwd_mean"]
        a[2] += r["inflight"]
        a[3] += r["inflight_gacked"]
    if not acc:
        sys.exit("windows.py: %s: no row before a job finished" % path)
    return {j: (a[1] / a[0], a[2] / a[0], a[3] / a[0]) for j, a in sorted(acc.items())}


def ecn_cuts(path):
    summary = os.path.join(os.path.dirname(path), "ina-leafspine_0_0_job_summary.csv")
    try:
        with open(summary, newline="") as f:
            return sum(float(r["ecn_cuts"]) for r in csv.DictReader(f))
    except (OSError, KeyError, ValueError) as e:
        sys.exit("windows.py: %s: not a job summary of ina-leafspine (%s)" % (summary, e))


def main():
    until, runs = jobseries.parse("windows.py", "--until", sys.argv[1:], __doc__)
    read = [(name, means(path, until), ecn_cuts(path)) for name, path in runs]
    print("| run | job | mean window (packets) | in flight | of them GACKed |")
    print("|---|---|---|---|---|")
    for name, jobs, cuts in read:
        for j, (w, inf, g) in jobs.items():
            print("| %s | %d | %.1f | %.0f | %.0f |" % (name, j, w, inf, g))
        print("| %s | ECN window cuts | %.0f | | |" % (name, cuts))


if __name__ == "__main__":
    main()
