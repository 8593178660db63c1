package managedupgrade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"sigs.k8s.io/yaml"
)

// The Managed Upgrade Operator's ConfigMap, in the namespace of its
// UpgradeConfigs, and the key of its configuration.
const (
	ConfigMapName = "managed-upgrade-operator-config"
	ConfigMapKey  = "config.yaml"
)

// ParseConfig reads the Managed Upgrade Operator's configuration (the
// ConfigMap's config.yaml). A value it leaves out is the default's. A value
// that cannot be read, or a document that is not YAML, is the default's too,
// with an error that says what was wrong: the operator itself would run,
// and so do the insights, the caller logging the error.
//
// nodeDrain.timeOut, also in the ConfigMap, is not read: it only says when
// the operator alerts about a slow drain, which no insight reports.
func ParseConfig(configYAML string) (Config, error) {
	config := DefaultConfig()
	asJSON, err := yaml.YAMLToJSON([]byte(configYAML))
	if err != nil {
		return config, fmt.Errorf("%s is not YAML: %w", ConfigMapKey, err)
	}
	// As numbers, not float64: 1.5 minutes is as wrong as "abc".
	decoder := json.NewDecoder(bytes.NewReader(asJSON))
	decoder.UseNumber()
	var doc any
	if err := decoder.Decode(&doc); err != nil {
		return config, fmt.Errorf("%s is not YAML: %w", ConfigMapKey, err)
	}
	if doc == nil {
		return config, nil
	}
	if _, ok := doc.(map[string]any); !ok {
		return config, fmt.Errorf("%s is not a mapping", ConfigMapKey)
	}
	var errs []error
	for _, field := range []struct {
		path []string
		into *time.Duration
	}{
		{[]string{"upgradeWindow", "timeOut"}, &config.UpgradeWindowTimeout},
		{[]string{"nodeDrain", "expectedNodeDrainTime"}, &config.ExpectedNodeDrainTime},
	} {
		if err := minutes(doc, field.path, field.into); err != nil {
			errs = append(errs, err)
		}
	}
	return config, errors.Join(errs...)
}

// minutes sets into to the whole, non-negative number of minutes at path
// in doc, leaving it as it is when the path is absent or the value cannot
// be read (then saying why).
func minutes(doc any, path []string, into *time.Duration) error {
	name := path[0]
	for i, key := range path {
		if i > 0 {
			name += "." + key
		}
		m, ok := doc.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %s is not a mapping", ConfigMapKey, name[:len(name)-len(key)-1])
		}
		if doc, ok = m[key]; !ok || doc == nil {
			return nil
		}
	}
	number, ok := doc.(json.Number)
	if !ok {
		return fmt.Errorf("%s: %s is %v, not a number of minutes", ConfigMapKey, name, doc)
	}
	n, err := strconv.ParseInt(number.String(), 10, 32)
	if err != nil || n < 0 {
		return fmt.Errorf("%s: %s is %s, not a whole, non-negative number of minutes", ConfigMapKey, name, number)
	}
	*into = time.Duration(n) * time.Minute
	return nil
}
