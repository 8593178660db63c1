package managedupgrade

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseConfig(t *testing.T) {
	defaults := DefaultConfig()
	for _, tc := range []struct {
		name   string
		yaml   string
		want   Config
		errSub string
	}{
		{name: "empty", yaml: "", want: defaults},
		{name: "both values", yaml: "upgradeWindow:\n  timeOut: 60\nnodeDrain:\n  timeOut: 45\n  expectedNodeDrainTime: 10\n",
			want: Config{UpgradeWindowTimeout: time.Hour, ExpectedNodeDrainTime: 10 * time.Minute}},
		{name: "zero turns the window off", yaml: "upgradeWindow: {timeOut: 0}",
			want: Config{UpgradeWindowTimeout: 0, ExpectedNodeDrainTime: defaults.ExpectedNodeDrainTime}},
		{name: "missing drain time", yaml: "upgradeWindow: {timeOut: 30}\nnodeDrain: {timeOut: 45}",
			want: Config{UpgradeWindowTimeout: 30 * time.Minute, ExpectedNodeDrainTime: defaults.ExpectedNodeDrainTime}},
		{name: "other keys are ignored", yaml: "maintenance: {controlPlaneTime: 90}\nhealthCheck: {ignoredCriticals: [a]}", want: defaults},
		{name: "not YAML", yaml: "upgradeWindow: [timeOut", want: defaults, errSub: "config.yaml is not YAML"},
		{name: "not a mapping", yaml: "- a\n- b", want: defaults, errSub: "config.yaml is not a mapping"},
		{name: "section not a mapping", yaml: "upgradeWindow: 60\nnodeDrain: {expectedNodeDrainTime: 5}",
			want:   Config{UpgradeWindowTimeout: defaults.UpgradeWindowTimeout, ExpectedNodeDrainTime: 5 * time.Minute},
			errSub: "config.yaml: upgradeWindow is not a mapping"},
		{name: "negative", yaml: "upgradeWindow: {timeOut: -5}\nnodeDrain: {expectedNodeDrainTime: 3}",
			want:   Config{UpgradeWindowTimeout: defaults.UpgradeWindowTimeout, ExpectedNodeDrainTime: 3 * time.Minute},
			errSub: "upgradeWindow.timeOut is -5, not a whole, non-negative number of minutes"},
		{name: "fraction", yaml: "nodeDrain: {expectedNodeDrainTime: 1.5}", want: defaults,
			errSub: "nodeDrain.expectedNodeDrainTime is 1.5, not a whole, non-negative number of minutes"},
		{name: "text", yaml: "nodeDrain: {expectedNodeDrainTime: soon}", want: defaults,
			errSub: "nodeDrain.expectedNodeDrainTime is soon, not a number of minutes"},
		{name: "both wrong", yaml: "upgradeWindow: {timeOut: x}\nnodeDrain: {expectedNodeDrainTime: -1}", want: defaults,
			errSub: "upgradeWindow.timeOut is x, not a number of minutes\nconfig.yaml: nodeDrain.expectedNodeDrainTime is -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConfig(tc.yaml)
			if diff := cmp.Diff(tc.want, got); diff != "" {
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
