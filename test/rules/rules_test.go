package rules

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/metrics"
)

// fleetMetrics are the metrics of the fleet design (docs/operations.md#metrics):
// the only ones the rules and the dashboard may read, since a hub has no
// other of the operator's.
var fleetMetrics = []string{
	"update_insights_control_plane_assessment",
	"update_insights_control_plane_completion_ratio",
	"update_insights_control_plane_estimated_remaining_seconds",
	"update_insights_pool_completion_ratio",
	"update_insights_pool_nodes",
	"update_insights_health_insights",
	"update_insights_informers_offline",
	"update_insights_plan_findings",
	"update_insights_plan_answered",
	"update_insights_plan_ready",
	"update_insights_config_rollout_in_progress",
	"update_insights_nodes_drain_held",
	"update_insights_drain_held_longest_seconds",
	metrics.HostedClusterAssessmentMetric,
	metrics.HostedClusterCompletionRatioMetric,
	metrics.HostedClusterEstimatedRemainingMetric,
	metrics.HostedClusterNodePoolsMetric,
}

// runbookURL is where an alert's runbook must be: its section of
// docs/operations.md, whose heading is the alert's name.
const runbookURL = "https://github.com/update-insights/update-insights-operator/blob/main/docs/operations.md#"

func loadRules(t *testing.T) *PrometheusRule {
	t.Helper()
	pr, err := LoadPrometheusRule(ManifestFile)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// extractRules writes the manifest's rule files into a folder of the
// test's and returns it.
func extractRules(t *testing.T) (string, *PrometheusRule) {
	t.Helper()
	pr := loadRules(t)
	dir := t.TempDir()
	if _, err := WriteRuleFiles(dir, pr); err != nil {
		t.Fatal(err)
	}
	return dir, pr
}

func promtool(t *testing.T) string {
	t.Helper()
	path, err := Promtool()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// runPromtool runs promtool in dir and fails the test with its output
// unless it succeeds.
func runPromtool(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(promtool(t), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestPrometheusRuleShipsWithTheMonitoringStack(t *testing.T) {
	pr := loadRules(t)
	if pr.Metadata.Namespace != operatorNamespace {
		t.Errorf("namespace %q, want the operator's %q, which platform monitoring reads rules from", pr.Metadata.Namespace, operatorNamespace)
	}
	// The PrometheusRule CRD comes with the monitoring stack, as the
	// ServiceMonitor's does.
	if !strings.HasPrefix(filepath.Base(ManifestFile), "0000_90_") {
		t.Errorf("%s is not at runlevel 90, after the monitoring stack", ManifestFile)
	}
}

func TestAlertsFollowOpenShiftsConventions(t *testing.T) {
	pr := loadRules(t)
	operations, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	alerts := pr.Alerts()
	if len(alerts) == 0 {
		t.Fatal("no alerts")
	}
	for name, rule := range alerts {
		t.Run(name, func(t *testing.T) {
			if !regexp.MustCompile(`^UpdateInsights[A-Z][A-Za-z]+$`).MatchString(name) {
				t.Errorf("the name is not CamelCase with the component's prefix UpdateInsights")
			}
			if s := rule.Labels["severity"]; s != "warning" && s != "critical" {
				t.Errorf("severity %q, want warning or critical", s)
			}
			if ns := rule.Labels["namespace"]; ns != operatorNamespace {
				t.Errorf("namespace label %q, want %q: OpenShift's alerts name the namespace of their source", ns, operatorNamespace)
			}
			for _, a := range []string{"summary", "description", "runbook_url"} {
				if strings.TrimSpace(rule.Annotations[a]) == "" {
					t.Errorf("no %s annotation", a)
				}
			}
			if want := runbookURL + strings.ToLower(name); rule.Annotations["runbook_url"] != want {
				t.Errorf("runbook_url %q, want %q", rule.Annotations["runbook_url"], want)
			}
			if !bytes.Contains(operations, []byte("\n### "+name+"\n")) {
				t.Errorf("docs/operations.md has no section ### %s, its runbook", name)
			}
			if strings.Contains(rule.Annotations["summary"], "{{") {
				t.Errorf("the summary is templated; a summary is the same for every instance")
			}
		})
	}
}

// The rules read only the fleet's metrics, so that a hub's store, which
// has no other, evaluates them as a cluster's Prometheus does.
func TestRulesReadOnlyFleetMetrics(t *testing.T) {
	metric := regexp.MustCompile(`\bupdate_insights_[a-z_]+\b`)
	for name, rule := range loadRules(t).Alerts() {
		for _, m := range metric.FindAllString(rule.Expr, -1) {
			if !slices.Contains(fleetMetrics, m) {
				t.Errorf("%s reads %s, which is not a fleet metric", name, m)
			}
		}
	}
}

func TestPromtoolChecksTheRules(t *testing.T) {
	dir, _ := extractRules(t)
	out := runPromtool(t, dir, "check", "rules", AllRulesFile)
	t.Log(out)
}

// The unit tests of testdata, each run by promtool against the rules the
// manifest ships: one cluster's Prometheus, its series as it scrapes them.
func TestAlertsOnOneCluster(t *testing.T) {
	tests, err := filepath.Glob("testdata/*.test.yaml")
	if err != nil || len(tests) == 0 {
		t.Fatalf("no promtool tests in testdata: %v", err)
	}
	dir, _ := extractRules(t)
	for _, test := range tests {
		t.Run(filepath.Base(test), func(t *testing.T) {
			content, err := os.ReadFile(test)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(test)), content, 0o600); err != nil {
				t.Fatal(err)
			}
			out := runPromtool(t, dir, "test", "rules", filepath.Base(test))
			t.Log(out)
		})
	}
}

// The fleet's tests, one per rule group, each with the checkpoints at
// which it expects exactly the group's alerts that the fleet's clusters
// fire: the unhealthy roles' alerts start firing between two of them,
// within the first 4 hours, or after 24 for the paused pools.
var fleetTests = []struct {
	group       string
	window      time.Duration
	checkpoints []time.Duration
	annotated   string
}{
	{"update-insights-progress", 4 * time.Hour, []time.Duration{45 * time.Minute, 90 * time.Minute, 150 * time.Minute, 210 * time.Minute, 239 * time.Minute}, AlertStalled},
	{"update-insights-health", 4 * time.Hour, []time.Duration{45 * time.Minute, 90 * time.Minute, 150 * time.Minute, 210 * time.Minute, 239 * time.Minute}, AlertCritical},
	{"update-insights-hosted-clusters", 4 * time.Hour, []time.Duration{45 * time.Minute, 90 * time.Minute, 150 * time.Minute, 210 * time.Minute, 239 * time.Minute}, AlertHostedBlocked},
	{"update-insights-pools", 26 * time.Hour, []time.Duration{45 * time.Minute, 12 * time.Hour, 24*time.Hour + 30*time.Minute, 25*time.Hour + 30*time.Minute}, AlertPaused},
}

// fleetShard is how many clusters share a promtool test group (and
// storage): few enough that a query holds under promtool's 10,000 samples.
const fleetShard = 25

const fleetSize = 1000

// Each cluster of the fleet fires the alerts its role plays at some
// checkpoint, and no other: a check of the expectations the fleet's
// promtool tests hold the rules to.
func TestFleetRolesFireTheirAlerts(t *testing.T) {
	groups := groupsByName(loadRules(t))
	counts := map[string]int{}
	for _, c := range NewFleet(fleetSize).Clusters {
		fired := map[string]bool{}
		for _, test := range fleetTests {
			for _, alert := range alertsOf(groups[test.group]) {
				for _, cp := range test.checkpoints {
					firing, err := c.Expected(alert, cp)
					if err != nil {
						t.Fatal(err)
					}
					if len(firing) > 0 {
						fired[alert] = true
					}
				}
			}
		}
		var got []string
		for a := range fired {
			got = append(got, a)
			counts[a]++
		}
		sort.Strings(got)
		if !slices.Equal(c.Plays, got) {
			t.Errorf("%s (%s) fires %v at the checkpoints, want %v", c.Name, c.Role, got, c.Plays)
		}
	}
	t.Logf("clusters firing each alert at some checkpoint: %v", counts)
	for _, a := range []string{AlertStalled, AlertOverdue, AlertCritical, AlertInformer, AlertPaused, AlertHostedBlocked, AlertHostedStalled, AlertHostedFailing} {
		if counts[a] < 3 {
			t.Errorf("only %d clusters fire %s: a handful should", counts[a], a)
		}
	}
}

// A fleet of a thousand clusters as ACM stores them: the rules, evaluated
// on it as a hub's ruler would, fire exactly the alerts of the clusters
// that play an unhealthy role, at each checkpoint.
func TestAlertsOnAFleet(t *testing.T) {
	dir, pr := extractRules(t)
	fleet := NewFleet(fleetSize)
	for _, test := range fleetTests {
		t.Run(test.group, func(t *testing.T) {
			name := test.group + ".fleet.test.yaml"
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			group, ok := groupsByName(pr)[test.group]
			if !ok {
				t.Fatalf("the manifest has no group %s", test.group)
			}
			err = fleet.PromtoolTest(f, group, GroupFile(test.group), test.window, test.checkpoints, fleetShard, test.annotated)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			out := runPromtool(t, dir, "test", "rules", name)
			t.Logf("%s in %s", strings.TrimSpace(out), time.Since(start).Round(time.Second))
		})
	}
}

func groupsByName(pr *PrometheusRule) map[string]Group {
	groups := map[string]Group{}
	for _, g := range pr.Spec.Groups {
		groups[g.Name] = g
	}
	return groups
}

func alertsOf(g Group) []string {
	var alerts []string
	for _, r := range g.Rules {
		if r.Alert != "" {
			alerts = append(alerts, r.Alert)
		}
	}
	return alerts
}

// Every alert of the manifest is in a fleet test.
func TestEveryAlertIsTestedOnTheFleet(t *testing.T) {
	tested := map[string]bool{}
	for _, test := range fleetTests {
		for _, a := range alertsOf(groupsByName(loadRules(t))[test.group]) {
			tested[a] = true
		}
	}
	for name := range loadRules(t).Alerts() {
		if !tested[name] {
			t.Errorf("%s is in no fleet test", name)
		}
		if _, ok := conditions[name]; !ok {
			t.Errorf("the fleet has no condition for %s", name)
		}
	}
}
