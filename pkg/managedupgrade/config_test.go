package managedupgrade

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The configuration reads as the Managed Upgrade Operator reads it
// (pkg/configmanager/config.go: gopkg.in/yaml.v2, no defaults applied;
// pkg/upgraders/config.go IsValid).
func TestParseConfig(t *testing.T) {
	const valid = "maintenance: {controlPlaneTime: 90}\nscale: {timeOut: 30}\nnodeDrain: {timeOut: 45, expectedNodeDrainTime: 8}\n"
	base := Config{ControlPlaneTime: 90 * time.Minute, NodeDrainTimeout: 45 * time.Minute, ExpectedNodeDrainTime: 8 * time.Minute}
	with := func(change func(*Config)) Config {
		c := base
		change(&c)
		return c
	}
	for _, tc := range []struct {
		name   string
		yaml   string
		want   Config
		errSub string
	}{
		{name: "empty: nothing the operator can run with", yaml: "", want: Config{Invalid: "config maintenance controlPlaneTime out is invalid"}},
		{name: "the keys it needs, the window policy off", yaml: valid, want: base},
		{name: "the window and the delay", yaml: valid + "upgradeWindow: {timeOut: 120, delayTrigger: 30}",
			want: with(func(c *Config) { c.UpgradeWindowTimeout, c.DelayTrigger = 2*time.Hour, 30*time.Minute })},
		{name: "drain strategies disabled, namespaces ignored", yaml: valid + "nodeDrain: {timeOut: 45, expectedNodeDrainTime: 8, disableDrainStrategies: true, ignoredNamespacePatterns: ['^openshift-logging$', 'customer']}",
			want: with(func(c *Config) {
				c.DisableDrainStrategies = true
				c.IgnoredNamespaces = []*regexp.Regexp{regexp.MustCompile("^openshift-logging$"), regexp.MustCompile("customer")}
			})},
		{name: "no expected drain time", yaml: "maintenance: {controlPlaneTime: 90}\nscale: {timeOut: 30}\nnodeDrain: {timeOut: 45}",
			want: Config{ControlPlaneTime: 90 * time.Minute, NodeDrainTimeout: 45 * time.Minute, Invalid: "config nodeDrain expectedNodeDrainTime is invalid"}},
		{name: "a negative window", yaml: valid + "upgradeWindow: {timeOut: -5}",
			want: with(func(c *Config) {
				c.UpgradeWindowTimeout, c.Invalid = -5*time.Minute, "config upgrade window time out is invalid"
			})},
		{name: "a fraction is cut, as yaml.v2 does", yaml: valid + "upgradeWindow: {timeOut: 1.5}",
			want: with(func(c *Config) { c.UpgradeWindowTimeout = time.Minute })},
		{name: "unknown keys are ignored", yaml: valid + "healthCheck: {ignoredCriticals: [a]}\nfeatureGate: {enabled: [PreHealthCheck]}", want: base},
		{name: "quoted minutes are no number", yaml: valid + "upgradeWindow: {timeOut: '30'}",
			want: Config{Invalid: "check config map managed-upgrade-operator-config for incorrect yaml formatting"}, errSub: "cannot unmarshal"},
		{name: "not YAML", yaml: "upgradeWindow: [timeOut",
			want: Config{Invalid: "check config map managed-upgrade-operator-config for incorrect yaml formatting"}, errSub: "config.yaml: yaml:"},
		// 2147483647 minutes times a minute wraps a time.Duration around to
		// a negative window, which would turn the window policy off
		// silently: the durations stay zero and Overflow says why.
		{name: "minutes a duration cannot hold", yaml: valid + "upgradeWindow: {timeOut: 2147483647}",
			want:   Config{Overflow: "upgradeWindow.timeOut 2147483647 minutes overflow the durations the operator computes from them (at most 153722867 minutes)"},
			errSub: "upgradeWindow.timeOut 2147483647"},
		{name: "the most minutes a duration holds", yaml: valid + "upgradeWindow: {timeOut: 153722867}",
			want: with(func(c *Config) { c.UpgradeWindowTimeout = 153722867 * time.Minute })},
		{name: "a pattern that is no regexp", yaml: valid + "nodeDrain: {timeOut: 45, expectedNodeDrainTime: 8, ignoredNamespacePatterns: ['(']}",
			want: base, errSub: "nodeDrain.ignoredNamespacePatterns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConfig(tc.yaml)
			// The operator's own message quotes the YAML error: compared
			// by its start.
			if strings.HasPrefix(got.Invalid, tc.want.Invalid) && tc.want.Invalid != "" {
				got.Invalid = tc.want.Invalid
			}
			if diff := cmp.Diff(tc.want, got, cmp.Comparer(func(a, b *regexp.Regexp) bool { return a.String() == b.String() })); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			switch {
			case tc.errSub == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.errSub != "" && (err == nil || !strings.Contains(err.Error(), tc.errSub)):
				t.Errorf("error %v, want one containing %q", err, tc.errSub)
			}
		})
	}
}

// The ConfigMap the operator's own tests deploy is valid, and reads as its
// values say.
func TestTheShippedConfiguration(t *testing.T) {
	got := shipped(t)
	want := Config{UpgradeWindowTimeout: 2 * time.Hour, DelayTrigger: 30 * time.Minute, ControlPlaneTime: 90 * time.Minute,
		NodeDrainTimeout: 45 * time.Minute, ExpectedNodeDrainTime: 8 * time.Minute}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
}
