package prometheus

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/update-insights/update-insights-operator/test/internal/process"
)

// TSDB is a Prometheus that serves the queries of its HTTP API, over plain
// HTTP on loopback, on a storage the test wrote (blocks promtool created),
// scraping and evaluating nothing.
type TSDB struct {
	address string
	dir     string
	client  *http.Client
	cmd     *exec.Cmd
	exited  chan struct{}
	output  *os.File
}

// ServeTSDB starts Prometheus on storage, on a free loopback port, and
// waits until it is ready; the test's cleanup stops it. Its output goes to
// prometheus.log in a folder of the test's.
func ServeTSDB(t testing.TB, storage string) (*TSDB, error) {
	binary, err := Binary()
	if err != nil {
		return nil, err
	}
	port, err := process.FreePort()
	if err != nil {
		return nil, err
	}
	s := &TSDB{address: fmt.Sprintf("127.0.0.1:%d", port), dir: t.TempDir(), client: &http.Client{Timeout: time.Minute}}
	config := filepath.Join(s.dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte("global: {}\n"), 0o600); err != nil {
		return nil, err
	}
	if s.output, err = os.Create(filepath.Join(s.dir, "prometheus.log")); err != nil {
		return nil, err
	}
	s.cmd = exec.Command(binary,
		"--config.file="+config,
		"--web.listen-address="+s.address,
		"--storage.tsdb.path="+storage,
		// Retention counts back from the newest block, not from now:
		// ten years keep whatever a test wrote.
		"--storage.tsdb.retention.time=10y",
		// The default, as the hub's Thanos querier has it, said so that a
		// query's lookback does not depend on the Prometheus installed.
		"--query.lookback-delta=5m",
		"--log.level=warn",
	)
	s.cmd.Stdout, s.cmd.Stderr = s.output, s.output
	if err := s.cmd.Start(); err != nil {
		s.output.Close()
		return nil, fmt.Errorf("starting prometheus: %w", err)
	}
	s.exited = make(chan struct{})
	go func() {
		_ = s.cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(s.stop)
	// It is ready within seconds once it has opened the blocks; the limit
	// only has to hold on a busy machine.
	const within = 2 * time.Minute
	deadline := time.Now().Add(within)
	for {
		resp, err := s.client.Get("http://" + s.address + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("prometheus was not ready within %s; its log:\n%s", within, s.Log())
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("prometheus exited; its log:\n%s", s.Log())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (s *TSDB) stop() {
	defer s.output.Close()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// Log returns what Prometheus printed.
func (s *TSDB) Log() string {
	content, _ := os.ReadFile(filepath.Join(s.dir, "prometheus.log"))
	return string(content)
}

// Sample is a series of a query's result: its labels, and its value at
// each time the query evaluated it at (one for an instant query).
type Sample struct {
	Labels map[string]string
	Values map[time.Time]float64
}

// Query runs an instant query at t.
func (s *TSDB) Query(ctx context.Context, query string, t time.Time) ([]Sample, error) {
	return s.get(ctx, "query", url.Values{"query": {query}, "time": {timestamp(t)}})
}

// QueryRange runs a range query from start to end, every step.
func (s *TSDB) QueryRange(ctx context.Context, query string, start, end time.Time, step time.Duration) ([]Sample, error) {
	return s.get(ctx, "query_range", url.Values{"query": {query}, "start": {timestamp(start)}, "end": {timestamp(end)}, "step": {strconv.FormatFloat(step.Seconds(), 'f', -1, 64)}})
}

// LabelValues returns the values of label of the series match selects
// from start to end, as Grafana's label_values(match, label) asks them.
func (s *TSDB) LabelValues(ctx context.Context, label, match string, start, end time.Time) ([]string, error) {
	var values []string
	err := s.call(ctx, "label/"+label+"/values", url.Values{"match[]": {match}, "start": {timestamp(start)}, "end": {timestamp(end)}}, &values)
	return values, err
}

func (s *TSDB) get(ctx context.Context, endpoint string, params url.Values) ([]Sample, error) {
	var data struct {
		ResultType string `json:"resultType"`
		Result     []struct {
			Metric map[string]string `json:"metric"`
			Value  *[2]any           `json:"value"`
			Values [][2]any          `json:"values"`
		} `json:"result"`
	}
	if err := s.call(ctx, endpoint, params, &data); err != nil {
		return nil, err
	}
	if data.ResultType != "vector" && data.ResultType != "matrix" {
		return nil, fmt.Errorf("a %s, not an instant or range vector", data.ResultType)
	}
	out := make([]Sample, 0, len(data.Result))
	for _, r := range data.Result {
		points := r.Values
		if r.Value != nil {
			points = append(points, *r.Value)
		}
		sample := Sample{Labels: r.Metric, Values: map[time.Time]float64{}}
		for _, p := range points {
			ts, ok := p[0].(float64)
			text, ok2 := p[1].(string)
			if !ok || !ok2 {
				return nil, fmt.Errorf("a point %v, not [time, \"value\"]", p)
			}
			v, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return nil, err
			}
			sample.Values[time.UnixMilli(int64(ts*1000)).UTC()] = v
		}
		out = append(out, sample)
	}
	return out, nil
}

// call asks the HTTP API and decodes its data into data.
func (s *TSDB) call(ctx context.Context, endpoint string, params url.Values, data any) error {
	return apiGet(ctx, s.client, "http://"+s.address+"/api/v1/"+endpoint, params, data)
}
