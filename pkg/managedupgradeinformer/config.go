package managedupgradeinformer

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"

	"github.com/update-insights/update-insights-operator/pkg/listwatch"
	"github.com/update-insights/update-insights-operator/pkg/managedupgrade"
)

// newConfigMapWatch watches the operator's ConfigMap by name in its
// namespace: the one ConfigMap the informer reads, and the only one it may
// (its Role names it), which calls then read from the cache rather than
// the API.
func newConfigMapWatch(client kubernetes.Interface, namespace string) *listwatch.Watched {
	configMaps := client.CoreV1().ConfigMaps(namespace)
	return listwatch.NewWatched(client, listwatch.Selected(listwatch.ByField(fields.OneTermEqualSelector("metadata.name", managedupgrade.ConfigMapName)), configMaps.List, configMaps.Watch),
		&corev1.ConfigMap{}, nil)
}

// config is the operator's configuration, from the cache of its
// ConfigMap, as the operator reads it: without it, or with what it cannot
// read, one it runs no update with (logged once for as long as it stays
// wrong). Until the cache has listed it: why to wait, or the error of the
// list.
func (i *Informer) config() (managedupgrade.Config, string, error) {
	name := i.sources.Namespace + "/" + managedupgrade.ConfigMapName
	synced, err := i.configMap.Synced()
	if err != nil {
		return managedupgrade.Config{}, "", fmt.Errorf("reading ConfigMap %s: %w", name, err)
	}
	if !synced {
		return managedupgrade.Config{}, "the ConfigMap cache is not synced yet", nil
	}
	obj, _, err := i.configMap.Informer.GetStore().GetByKey(name)
	if err != nil {
		return managedupgrade.Config{}, "", fmt.Errorf("reading ConfigMap %s: %w", name, err)
	}
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok {
		i.configProblem(nil)
		return managedupgrade.NoConfigMap(), "", nil
	}
	config, err := managedupgrade.ParseConfig(cm.Data[managedupgrade.ConfigMapKey])
	i.configProblem(err)
	return config, "", nil
}

func (i *Informer) configProblem(err error) {
	message := ""
	if err != nil {
		message = err.Error()
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if message != "" && message != i.configError {
		i.sources.Log.Error(err, "The Managed Upgrade Operator's ConfigMap cannot be read in full",
			"configMap", i.sources.Namespace+"/"+managedupgrade.ConfigMapName)
	}
	i.configError = message
}
