package managedupgrade

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v2"
)

// The Managed Upgrade Operator's ConfigMap, in the namespace of its
// UpgradeConfigs, and the key of its configuration.
const (
	ConfigMapName = "managed-upgrade-operator-config"
	ConfigMapKey  = "config.yaml"
)

// Config is what the Managed Upgrade Operator's ConfigMap (not the
// UpgradeConfig) says about the timing of an update, as the operator reads
// it. Durations are the ConfigMap's whole minutes.
type Config struct {
	// UpgradeWindowTimeout is upgradeWindow.timeOut: how long after its
	// start the OSD upgrader lets an update take to commence before it
	// fails it (pkg/upgraders/osdupgrader.go shouldFailUpgrade). Zero turns
	// that off.
	UpgradeWindowTimeout time.Duration
	// DelayTrigger is upgradeWindow.delayTrigger: how long after its start
	// an update not yet commenced is notified as delayed
	// (pkg/upgraders/delaystep.go). Zero turns that off.
	DelayTrigger time.Duration
	// ControlPlaneTime is maintenance.controlPlaneTime: the length of the
	// control plane's maintenance window, the silence of its expected
	// critical alerts (pkg/upgraders/maintenancestep.go,
	// controlplanestep.go).
	ControlPlaneTime time.Duration
	// NodeDrainTimeout is nodeDrain.timeOut: how long after a worker's
	// drain started the operator deletes the pods no PodDisruptionBudget
	// protects (pkg/drain/strategy.go), and after which a drain has failed.
	NodeDrainTimeout time.Duration
	// ExpectedNodeDrainTime is nodeDrain.expectedNodeDrainTime: added to
	// the UpgradeConfig's PDBForceDrainTimeout, when the operator deletes
	// the pods a PodDisruptionBudget protects.
	ExpectedNodeDrainTime time.Duration
	// DisableDrainStrategies is nodeDrain.disableDrainStrategies: the
	// operator forces no drain at all.
	DisableDrainStrategies bool
	// IgnoredNamespaces are nodeDrain.ignoredNamespacePatterns, compiled:
	// the pods of a namespace one matches (anywhere in its name) are never
	// force-removed.
	IgnoredNamespaces []*regexp.Regexp
	// Invalid says why the operator runs no update with this
	// configuration, in its own words; empty when it can.
	Invalid string
	// Overflow names the minute values too large for a time.Duration,
	// empty when there is none. The operator multiplies them by
	// time.Minute unchecked (pkg/upgraders/config.go,
	// pkg/drain/config.go), which wraps around: what it then does cannot
	// be told, so the durations above are left zero (each policy off) and
	// the insights say that its timing is unknown.
	Overflow string
}

// maxMinutes is the most minutes a time.Duration holds.
const maxMinutes = int(math.MaxInt64 / int64(time.Minute))

// muoConfig holds the keys of config.yaml the insights read, with the
// types of the operator's own structs (controllers/upgradeconfig/config.go,
// pkg/upgraders/config.go, pkg/drain/config.go).
type muoConfig struct {
	UpgradeWindow struct {
		TimeOut      int `yaml:"timeOut"`
		DelayTrigger int `yaml:"delayTrigger"`
	} `yaml:"upgradeWindow"`
	Maintenance struct {
		ControlPlaneTime int `yaml:"controlPlaneTime"`
	} `yaml:"maintenance"`
	Scale struct {
		TimeOut int `yaml:"timeOut"`
	} `yaml:"scale"`
	NodeDrain struct {
		DisableDrainStrategies   bool     `yaml:"disableDrainStrategies"`
		TimeOut                  int      `yaml:"timeOut"`
		ExpectedNodeDrainTime    int      `yaml:"expectedNodeDrainTime"`
		IgnoredNamespacePatterns []string `yaml:"ignoredNamespacePatterns"`
	} `yaml:"nodeDrain"`
}

// NoConfigMap is the configuration when the ConfigMap does not exist: the
// operator cannot read one, and runs no update (pkg/configmanager/config.go
// returns the Get error).
func NoConfigMap() Config {
	return Config{Invalid: fmt.Sprintf("its ConfigMap %s does not exist", ConfigMapName)}
}

// ParseConfig reads the Managed Upgrade Operator's configuration (the
// ConfigMap's config.yaml) as the operator does: with gopkg.in/yaml.v2,
// which it uses (pkg/configmanager/config.go), so that a value decodes, or
// fails to, exactly as there (1.5 becomes 1, "30" is an error). That
// library ignores the `default:` tags of the operator's structs, so a key
// left out is zero, whatever its docs/configmap.md says of defaults: an
// absent upgradeWindow.timeOut fails no update, and an absent
// nodeDrain.timeOut makes the configuration invalid (pkg/upgraders/config.go
// IsValid), as Invalid then says. The error is for the caller's log.
func ParseConfig(configYAML string) (Config, error) {
	var raw muoConfig
	if err := yaml.Unmarshal([]byte(configYAML), &raw); err != nil {
		invalid := fmt.Sprintf("check config map %s for incorrect yaml formatting %s", ConfigMapName, err)
		return Config{Invalid: invalid}, fmt.Errorf("%s: %w", ConfigMapKey, err)
	}
	if overflow := raw.overflow(); overflow != "" {
		return Config{DisableDrainStrategies: raw.NodeDrain.DisableDrainStrategies, Invalid: raw.invalid(), Overflow: overflow},
			fmt.Errorf("%s: %s", ConfigMapKey, overflow)
	}
	config := Config{
		UpgradeWindowTimeout:   minutes(raw.UpgradeWindow.TimeOut),
		DelayTrigger:           minutes(raw.UpgradeWindow.DelayTrigger),
		ControlPlaneTime:       minutes(raw.Maintenance.ControlPlaneTime),
		NodeDrainTimeout:       minutes(raw.NodeDrain.TimeOut),
		ExpectedNodeDrainTime:  minutes(raw.NodeDrain.ExpectedNodeDrainTime),
		DisableDrainStrategies: raw.NodeDrain.DisableDrainStrategies,
		Invalid:                raw.invalid(),
	}
	for _, pattern := range raw.NodeDrain.IgnoredNamespacePatterns {
		re, err := regexp.Compile(pattern)
		if err != nil {
			// The operator's regexp.MustCompile would panic on it
			// (pkg/drain/pod_predicates.go): nothing it does can be told.
			return config, fmt.Errorf("%s: nodeDrain.ignoredNamespacePatterns: %w", ConfigMapKey, err)
		}
		config.IgnoredNamespaces = append(config.IgnoredNamespaces, re)
	}
	return config, nil
}

// invalid is the first error of the upgrader configuration's IsValid, in
// its order and words (pkg/upgraders/config.go), for the keys read here.
func (c muoConfig) invalid() string {
	switch {
	case c.Maintenance.ControlPlaneTime <= 0:
		return "config maintenance controlPlaneTime out is invalid"
	case c.Scale.TimeOut <= 0:
		return "config scale timeOut is invalid"
	case c.NodeDrain.TimeOut <= 0:
		return "config nodeDrain timeOut is invalid"
	case c.NodeDrain.ExpectedNodeDrainTime <= 0:
		return "config nodeDrain expectedNodeDrainTime is invalid"
	case c.UpgradeWindow.DelayTrigger < 0:
		return "config upgrade window delay trigger is invalid"
	case c.UpgradeWindow.TimeOut < 0:
		return "config upgrade window time out is invalid"
	}
	return ""
}

// overflow names the minute values a time.Duration cannot hold, or
// nothing.
func (c muoConfig) overflow() string {
	var over []string
	for _, v := range []struct {
		key   string
		value int
	}{
		{"upgradeWindow.timeOut", c.UpgradeWindow.TimeOut},
		{"upgradeWindow.delayTrigger", c.UpgradeWindow.DelayTrigger},
		{"maintenance.controlPlaneTime", c.Maintenance.ControlPlaneTime},
		{"nodeDrain.timeOut", c.NodeDrain.TimeOut},
		{"nodeDrain.expectedNodeDrainTime", c.NodeDrain.ExpectedNodeDrainTime},
	} {
		if v.value > maxMinutes || v.value < -maxMinutes {
			over = append(over, fmt.Sprintf("%s %d", v.key, v.value))
		}
	}
	if len(over) == 0 {
		return ""
	}
	return fmt.Sprintf("%s minutes overflow the durations the operator computes from them (at most %d minutes)", strings.Join(over, ", "), maxMinutes)
}

func minutes(n int) time.Duration { return time.Duration(n) * time.Minute }

// ignored says whether the operator never force-removes the pods of the
// namespace (pkg/drain/pod_predicates.go containsIgnoredNamespace).
func (c Config) ignored(namespace string) bool {
	for _, re := range c.IgnoredNamespaces {
		if re.MatchString(namespace) {
			return true
		}
	}
	return false
}
