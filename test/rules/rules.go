// Package rules tests the operator's alerting rules, as the payload ships
// them in its PrometheusRule, with promtool and a real Prometheus: the rule
// files promtool reads are extracted from the manifest, never copied by
// hand, and a synthetic fleet of clusters as ACM's observability stores them
// (fleet.go) checks the rules and the ACM dashboard at a thousand clusters.
package rules

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// The files this package reads, relative to its folder.
const (
	// ManifestFile is the PrometheusRule of the payload.
	ManifestFile = "../../manifests/0000_90_update-insights-operator_01_prometheusrule.yaml"
	// DashboardFile is the ConfigMap of the ACM dashboard, applied on the hub.
	DashboardFile = "../../deploy/acm/update-insights-fleet-dashboard.yaml"
	// AllRulesFile is the name of the rule file of every group that
	// WriteRuleFiles writes; GroupFile names each group's own.
	AllRulesFile = "rules.yaml"
)

// PrometheusRule holds the fields of a monitoring.coreos.com/v1
// PrometheusRule the manifest uses. It is decoded strictly, so that a
// misspelt field fails instead of vanishing: a field the manifest starts to
// use needs adding here.
type PrometheusRule struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   metav1.ObjectMeta `json:"metadata"`
	Spec       struct {
		Groups []Group `json:"groups"`
	} `json:"spec"`
}

// Group is a rule group, as a Prometheus rule file and the PrometheusRule's
// spec.groups both write it.
type Group struct {
	Name     string `json:"name"`
	Interval string `json:"interval,omitempty"`
	Rules    []Rule `json:"rules"`
}

// Rule is an alerting or a recording rule.
type Rule struct {
	Alert       string            `json:"alert,omitempty"`
	Record      string            `json:"record,omitempty"`
	Expr        string            `json:"expr"`
	For         string            `json:"for,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// LoadPrometheusRule reads the PrometheusRule manifest, strictly.
func LoadPrometheusRule(path string) (*PrometheusRule, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var pr PrometheusRule
	if err := yaml.UnmarshalStrict(content, &pr); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if pr.APIVersion != "monitoring.coreos.com/v1" || pr.Kind != "PrometheusRule" {
		return nil, fmt.Errorf("%s: a %s %s, not a monitoring.coreos.com/v1 PrometheusRule", path, pr.APIVersion, pr.Kind)
	}
	if len(pr.Spec.Groups) == 0 {
		return nil, fmt.Errorf("%s: no rule groups", path)
	}
	return &pr, nil
}

// GroupFile is the name of the rule file WriteRuleFiles writes for a group.
func GroupFile(group string) string { return group + ".rules.yaml" }

// WriteRuleFiles writes the PrometheusRule's groups into dir as Prometheus
// rule files, as the Prometheus operator hands them to Prometheus: all the
// groups in AllRulesFile, and each group alone in GroupFile(name) (groups
// are evaluated independently, so a test may load only the group it
// tests). It returns the files' paths.
func WriteRuleFiles(dir string, pr *PrometheusRule) ([]string, error) {
	write := func(name string, groups []Group) (string, error) {
		content, err := yaml.Marshal(map[string][]Group{"groups": groups})
		if err != nil {
			return "", err
		}
		path := filepath.Join(dir, name)
		return path, os.WriteFile(path, content, 0o600)
	}
	all, err := write(AllRulesFile, pr.Spec.Groups)
	if err != nil {
		return nil, err
	}
	files := []string{all}
	for _, g := range pr.Spec.Groups {
		if strings.ContainsAny(g.Name, `/\`) || g.Name == "" {
			return nil, fmt.Errorf("group %q cannot name a file", g.Name)
		}
		f, err := write(GroupFile(g.Name), []Group{g})
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// Alerts returns the alerting rules by name.
func (pr *PrometheusRule) Alerts() map[string]Rule {
	alerts := map[string]Rule{}
	for _, g := range pr.Spec.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				alerts[r.Alert] = r
			}
		}
	}
	return alerts
}

// Promtool finds promtool, or says how to install it.
func Promtool() (string, error) {
	return binary("promtool")
}

// Prometheus finds prometheus, or says how to install it.
func Prometheus() (string, error) {
	return binary("prometheus")
}

func binary(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", errors.New(name + " is not installed: install Debian's prometheus package, which has both prometheus and promtool (hack/install-prometheus.sh, or make prometheus), as .ci/run does")
	}
	return path, nil
}
