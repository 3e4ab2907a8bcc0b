// Command wangen derives the two small tables package crew embeds from
// the measured WAN data described in ../../data/ATTRIBUTION.md:
//
//	go run ./workloads/crew/internal/wangen -src DIR -out workloads/crew/data
//
// DIR holds the unmodified copies of WANify's datasets/dynamicN_20.json
// (in DIR/wanify_dynamic/) and Skyplane's profiles/latency.csv (as
// DIR/skyplane_latency.csv). It writes
//
//   - wanify_aws_mbps.csv: for every ordered pair of WANify's 8 AWS
//     regions, how many readings of each sent_mbps value the 600 samples
//     hold (src_region,dst_region,sent_mbps,count), sorted;
//   - skyplane_aws_rtt_ms.csv: Skyplane's avg_rtt (ms) for the same 56
//     ordered pairs (src_region,dst_region,avg_rtt_ms), sorted.
//
// Nothing else is taken: the output is a lossless summary of the fields
// the simulator samples.
package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type reading struct {
	SrcRegion  string `json:"srcRegion"`
	DestRegion string `json:"destRegion"`
	SentMbps   string `json:"sent_mbps"`
}

type sample struct {
	Readings []reading `json:"readings"`
}

type pair struct{ src, dst string }

func main() {
	src := flag.String("src", "", "directory holding wanify_dynamic/ and skyplane_latency.csv")
	out := flag.String("out", "", "directory to write the tables to")
	flag.Parse()
	if *src == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "wangen: -src and -out are required")
		os.Exit(2)
	}
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "wangen:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	files, err := filepath.Glob(filepath.Join(src, "wanify_dynamic", "dynamic*_20.json"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no WANify samples under %s", src)
	}
	hist := map[pair]map[int]int{}
	regions := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var s sample
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		for _, r := range s.Readings {
			v, err := strconv.Atoi(r.SentMbps)
			if err != nil {
				return fmt.Errorf("%s: sent_mbps %q: %w", f, r.SentMbps, err)
			}
			k := pair{r.SrcRegion, r.DestRegion}
			if hist[k] == nil {
				hist[k] = map[int]int{}
			}
			hist[k][v]++
			regions[r.SrcRegion], regions[r.DestRegion] = true, true
		}
	}
	var rows [][]string
	for k, h := range hist {
		for v, c := range h {
			rows = append(rows, []string{k.src, k.dst, strconv.Itoa(v), strconv.Itoa(c)})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		if a[1] != b[1] {
			return a[1] < b[1]
		}
		x, _ := strconv.Atoi(a[2])
		y, _ := strconv.Atoi(b[2])
		return x < y
	})
	if err := write(filepath.Join(out, "wanify_aws_mbps.csv"), []string{"src_region", "dst_region", "sent_mbps", "count"}, rows); err != nil {
		return err
	}

	f, err := os.Open(filepath.Join(src, "skyplane_latency.csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return err
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	rows = nil
	for _, r := range recs[1:] {
		s, d := r[col["src_region"]], r[col["dst_region"]]
		if !strings.HasPrefix(s, "aws:") || !strings.HasPrefix(d, "aws:") {
			continue
		}
		s, d = strings.TrimPrefix(s, "aws:"), strings.TrimPrefix(d, "aws:")
		if regions[s] && regions[d] {
			rows = append(rows, []string{s, d, r[col["avg_rtt"]]})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i][0] != rows[j][0] {
			return rows[i][0] < rows[j][0]
		}
		return rows[i][1] < rows[j][1]
	})
	return write(filepath.Join(out, "skyplane_aws_rtt_ms.csv"), []string{"src_region", "dst_region", "avg_rtt_ms"}, rows)
}

func write(path string, header []string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.Write(header); err != nil {
		return err
	}
	if err := w.WriteAll(rows); err != nil {
		return err
	}
	return f.Close()
}
