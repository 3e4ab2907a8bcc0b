"""jobseries.py: the command line shared by the scripts that read the job
series of `syncsim run ina-leafspine ... --series-dir DIR`
(DIR/ina-leafspine_0_0_jobs.csv): an optional time flag in ms, then one
NAME=DIR per run (progress.py, storms.py, windows.py), and the reading of
that CSV."""
import csv
import sys


def parse(prog, flag, argv, doc):
    """Parse argv as [FLAG MS] NAME=DIR [NAME=DIR ...] for the script prog;
    return (the time in ms or None, [(NAME, jobs CSV path)]). Bad input ends
    the script with one line; no run at all prints the usage line of its
    docstring doc (the line naming "prog [")."""
    at = None
    runs = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == flag:
            if i + 1 >= len(argv):
                sys.exit("%s: %s needs a value in ms" % (prog, flag))
            try:
                at = float(argv[i + 1])
            except ValueError:
                sys.exit("%s: %s %r is not a number of ms" % (prog, flag, argv[i + 1]))
            i += 2
            continue
        if "=" not in a:
            sys.exit("%s: %r is not NAME=DIR" % (prog, a))
        name, d = a.split("=", 1)
        runs.append((name, d + "/ina-leafspine_0_0_jobs.csv"))
        i += 1
    if not runs:
        sys.exit("usage: " + next(l.strip() for l in doc.splitlines() if prog + " [" in l))
    return at, runs


def rows(prog, path, until, cols):
    """Read the jobs CSV at path for the script prog: the rows at or before
    until ms (every row when until is None), each a dict of the columns
    cols as floats and "job" as an int. A file that cannot be read or lacks
    a column ends the script with one line."""
    out = []
    try:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if until is not None and float(r["t_ms"]) > until + 1e-9:
                    continue
                row = {k: float(r[k]) for k in cols}
                row["job"] = int(r["job"])
                out.append(row)
    except (OSError, KeyError, ValueError) as e:
        sys.exit("%s: %s: not a job series of ina-leafspine (%s)" % (prog, path, e))
    return out
