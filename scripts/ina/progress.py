#!/usr/bin/env python3
"""progress.py: each INA job's state at one instant of a run, read from the
job series that `syncsim run ina-leafspine ... --series-dir DIR` writes
(DIR/ina-leafspine_0_0_jobs.csv, a row per job every series_us).

    scripts/ina/progress.py [--at MS] NAME=DIR [NAME=DIR ...]

For every run, one line per quantity and a column per job, at the last row
at or before --at (default: the last row): progress (the fraction of the
job's iterations whose results have come), AWD (mean over the job's
workers), the timeouts and pulls so far, and the gradients in flight; and
in the last column the run's progress as a whole (every job's results over
their goal, as syncsim's progress line counts it). Markdown, so that
scripts/ina/fullsize.sh's `rules` can append it to its tables.
"""
import sys

import jobseries


COLS = ("t_ms", "progress", "results", "awd_mean", "timeouts", "pulls", "inflight", "inflight_gacked")


def state(path, at):
    last = {}
    for row in jobseries.rows("progress.py", path, at, COLS):
        last[row["job"]] = row
    if not last:
        sys.exit("progress.py: %s: no row at or before %s ms" % (path, at))
    return last


def main(argv):
    at, runs = jobseries.parse("progress.py", "--at", argv, __doc__)
    jobs = None
    rows = []
    for name, path in runs:
        last = state(path, at)
        if jobs is None:
            jobs = sorted(last)
        t = max(float(r["t_ms"]) for r in last.values())
        prog = [float(last[j]["progress"]) for j in jobs]
        got = sum(float(last[j]["results"]) for j in jobs)
        goal = sum(float(last[j]["results"]) / float(last[j]["progress"]) for j in jobs if float(last[j]["progress"]) > 0)
        whole = "%.3f" % (got / goal) if goal > 0 and all(p > 0 for p in prog) else "-"
        rows.append(("%s: progress at %.0f ms" % (name, t), ["%.3f" % p for p in prog], whole))
        rows.append(("%s: AWD" % name, ["%.0f" % float(last[j]["awd_mean"]) for j in jobs], ""))
        rows.append(("%s: timeouts, pulls" % name, ["%.0f, %.0f" % (last[j]["timeouts"], last[j]["pulls"]) for j in jobs], ""))
        rows.append(("%s: in flight (GACKed)" % name, ["%.0f (%.0f)" % (last[j]["inflight"], last[j]["inflight_gacked"]) for j in jobs], ""))
    print("| run | " + " | ".join("job %d" % j for j in jobs) + " | all jobs |")
    print("|---" * (len(jobs) + 2) + "|")
    for label, cells, mean in rows:
        print("| %s | %s | %s |" % (label, " | ".join(cells), mean))


if __name__ == "__main__":
    main(sys.argv[1:])
