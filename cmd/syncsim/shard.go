package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// shardOf reads which shard of the sweep to run (0-based) and how many
// shards there are (0: the whole sweep), from --shard I/N (1-based, as a
// person counts), or, with --shard auto or --shards N, from the batch
// scheduler's environment:
//
//	Slurm job array:        SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT
//	Kubernetes Indexed Job: JOB_COMPLETION_INDEX of --shards N (the Job's completions)
//
// --shards N, when given, must agree with SLURM_ARRAY_TASK_COUNT.
func shardOf(c *cli.Context, getenv func(string) string) (shard, shards int, err error) {
	spec := c.String("shard")
	n := c.Int("shards")
	if c.IsSet("shards") && n < 1 {
		return 0, 0, fmt.Errorf("--shards must be at least 1, got %d", n)
	}
	if spec != "" && spec != "auto" {
		if c.IsSet("shards") {
			return 0, 0, fmt.Errorf("--shard %s already says how many shards; drop --shards", spec)
		}
		i, cnt, err := parseShard(spec)
		return i, cnt, err
	}
	if spec == "" && !c.IsSet("shards") {
		return 0, 0, nil
	}
	// From the environment.
	if v := getenv("JOB_COMPLETION_INDEX"); v != "" {
		if !c.IsSet("shards") {
			return 0, 0, fmt.Errorf("JOB_COMPLETION_INDEX=%s is set but not the number of shards: give --shards N (the Job's completions)", v)
		}
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= n {
			return 0, 0, fmt.Errorf("JOB_COMPLETION_INDEX=%q is not an index in [0, %d)", v, n)
		}
		return i, n, nil
	}
	if v := getenv("SLURM_ARRAY_TASK_ID"); v != "" {
		id, err := strconv.Atoi(v)
		if err != nil {
			return 0, 0, fmt.Errorf("SLURM_ARRAY_TASK_ID=%q is not an integer", v)
		}
		lo := 0
		if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
			if lo, err = strconv.Atoi(m); err != nil {
				return 0, 0, fmt.Errorf("SLURM_ARRAY_TASK_MIN=%q is not an integer", m)
			}
		}
		cnt := n
		if sc := getenv("SLURM_ARRAY_TASK_COUNT"); sc != "" {
			k, err := strconv.Atoi(sc)
			if err != nil || k < 1 {
				return 0, 0, fmt.Errorf("SLURM_ARRAY_TASK_COUNT=%q is not a positive integer", sc)
			}
			if c.IsSet("shards") && k != n {
				return 0, 0, fmt.Errorf("--shards %d but the Slurm array has %d tasks (SLURM_ARRAY_TASK_COUNT)", n, k)
			}
			cnt = k
		}
		if cnt < 1 {
			return 0, 0, fmt.Errorf("SLURM_ARRAY_TASK_ID=%s is set but not the number of shards: give --shards N or run as an array job", v)
		}
		if id-lo < 0 || id-lo >= cnt {
			return 0, 0, fmt.Errorf("Slurm array task %d is not in [%d, %d): submit with --array=%d-%d (no step)", id, lo, lo+cnt, lo, lo+cnt-1)
		}
		return id - lo, cnt, nil
	}
	return 0, 0, fmt.Errorf("--shard auto / --shards: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set; give --shard I/N")
}

// parseShard parses "I/N" with 1 <= I <= N.
func parseShard(spec string) (shard, shards int, err error) {
	a, b, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("--shard %q: want I/N with 1 <= I <= N (for example --shard 2/8), or auto", spec)
	}
	return i - 1, n, nil
}

// shardPath puts the shard into a CSV path: "{shard}" becomes I (1-based)
// and "{shards}" N, so one command line serves every task of an array.
func shardPath(path string, shard, shards int) string {
	path = strings.ReplaceAll(path, "{shard}", strconv.Itoa(shard+1))
	return strings.ReplaceAll(path, "{shards}", strconv.Itoa(shards))
}

// fromBatch reports whether the shard count comes from the batch
// scheduler (--shard auto or --shards N) rather than from --shard I/N.
func fromBatch(c *cli.Context) bool {
	return c.String("shard") == "auto" || c.IsSet("shards")
}
