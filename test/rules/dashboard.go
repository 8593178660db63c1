package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/test/internal/prometheus"
)

// Dashboard holds the fields of a Grafana dashboard the tests read; the
// rest of its JSON is Grafana's own.
type Dashboard struct {
	UID           string `json:"uid"`
	Title         string `json:"title"`
	SchemaVersion int    `json:"schemaVersion"`
	Templating    struct {
		List []Variable `json:"list"`
	} `json:"templating"`
	Panels []Panel `json:"panels"`
}

// Variable is a template variable.
type Variable struct {
	Name       string     `json:"name"`
	Type       string     `json:"type"`
	Query      string     `json:"query"`
	Datasource Datasource `json:"datasource"`
	IncludeAll bool       `json:"includeAll"`
	Multi      bool       `json:"multi"`
	AllValue   string     `json:"allValue"`
}

// Panel is a panel of the dashboard.
type Panel struct {
	ID         int        `json:"id"`
	Type       string     `json:"type"`
	Title      string     `json:"title"`
	Datasource Datasource `json:"datasource"`
	GridPos    struct {
		X, Y, W, H int
	} `json:"gridPos"`
	Targets []Target `json:"targets"`
}

// Target is a panel's query.
type Target struct {
	RefID      string     `json:"refId"`
	Expr       string     `json:"expr"`
	Instant    bool       `json:"instant"`
	Range      bool       `json:"range"`
	Datasource Datasource `json:"datasource"`
}

// Datasource is a reference to a datasource.
type Datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

// LoadDashboard reads the dashboard's ConfigMap, strictly, and the
// dashboard its one data key holds.
func LoadDashboard(path string) (*corev1.ConfigMap, *Dashboard, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var cm corev1.ConfigMap
	if err := yaml.UnmarshalStrict(content, &cm); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(cm.Data) != 1 {
		return nil, nil, fmt.Errorf("%s: %d data keys, want one, the dashboard", path, len(cm.Data))
	}
	var d Dashboard
	for key, value := range cm.Data {
		if err := json.Unmarshal([]byte(value), &d); err != nil {
			return nil, nil, fmt.Errorf("%s: %s: %w", path, key, err)
		}
	}
	return &cm, &d, nil
}

// Expand replaces the $cluster variable in a query by the regular
// expression Grafana puts there: ".*" for All (the variable's allValue),
// or the names chosen, joined by | in parentheses.
func Expand(expr string, clusters ...string) string {
	value := ".*"
	if len(clusters) > 0 {
		value = "(" + strings.Join(clusters, "|") + ")"
	}
	return strings.ReplaceAll(expr, "$cluster", value)
}

// FleetTSDB is a real Prometheus holding the fleet's series over a window,
// as a hub's store holds them.
type FleetTSDB struct {
	*prometheus.TSDB
	// Start and End are the first and last samples' times.
	Start, End time.Time
}

// fleetStart is when the fleet's first sample is: a fixed time, so that a
// failure reads the same on every run.
var fleetStart = time.Date(2025, 1, 6, 8, 0, 0, 0, time.UTC)

// ServeFleet writes the fleet's series over window as OpenMetrics (with
// the ALERTS and cluster_version series, WriteOpenMetrics), has promtool
// turn them into TSDB blocks, and serves them with Prometheus. At 1,000
// clusters over 4 hours, the OpenMetrics take 700 MB for the time promtool
// reads them, and promtool a minute and 1 GB of memory.
func ServeFleet(t testing.TB, fleet *Fleet, pr *PrometheusRule, window time.Duration) (*FleetTSDB, error) {
	promtool, err := Promtool()
	if err != nil {
		return nil, err
	}
	if _, err := Prometheus(); err != nil {
		return nil, err
	}
	dir := t.TempDir()
	input := filepath.Join(dir, "fleet.om")
	f, err := os.Create(input)
	if err != nil {
		return nil, err
	}
	err = fleet.WriteOpenMetrics(f, pr, fleetStart, window)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	storage := filepath.Join(dir, "data")
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", input, storage).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	if err := os.Remove(input); err != nil {
		return nil, err
	}
	tsdb, err := prometheus.ServeTSDB(t, storage)
	if err != nil {
		return nil, err
	}
	return &FleetTSDB{TSDB: tsdb, Start: fleetStart, End: fleetStart.Add(window)}, nil
}
