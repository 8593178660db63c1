// Package analyze computes, without an API server, the insights the
// controllers would write for a recorded cluster state, with the same pure
// packages the controllers use.
package analyze

import (
	"sort"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

// Cluster is a recorded cluster state.
type Cluster struct {
	ClusterVersions    []*configv1.ClusterVersion
	ClusterOperators   []*configv1.ClusterOperator
	MachineConfigPools []*machineconfigurationv1.MachineConfigPool
	MachineConfigs     []*machineconfigurationv1.MachineConfig
	Nodes              []*corev1.Node
	Deployments        []*appsv1.Deployment
	// Alerts are the alerts the cluster's Prometheus API reported.
	Alerts []alerts.Alert
}

// Insight is an insight analyze computes: Object is the insight object as a
// controller would write it, its kind set.
type Insight struct {
	Object Object
}

// Object is an insight object: ClusterVersionProgressInsight,
// ClusterOperatorProgressInsight, MachineConfigPoolProgressInsight,
// NodeProgressInsight or UpdateHealthInsight.
type Object interface {
	runtime.Object
	metav1.Object
}

// kindOrder puts the control plane's summary first, and health last.
var kindOrder = map[string]int{
	"ClusterVersionProgressInsight":    0,
	"ClusterOperatorProgressInsight":   1,
	"MachineConfigPoolProgressInsight": 2,
	"NodeProgressInsight":              3,
	"UpdateHealthInsight":              4,
}

// Insights returns the insights for the cluster as of now, ordered by kind and
// then by name. It sees the cluster as a freshly started operator would: no
// insight written before.
func Insights(c *Cluster, now time.Time) []Insight {
	operators := controlplane.PayloadOperators(c.ClusterOperators)

	var insights []Insight
	target, mcoImage, migrating := "", c.MachineConfigOperatorImage(), false
	if len(c.ClusterVersions) > 0 {
		target = c.ClusterVersions[0].Status.Desired.Version
		migrating = controlplane.IsArchitectureMigrationInProgress(c.ClusterVersions[0])
	}
	for _, co := range operators {
		insights = append(insights, clusterOperatorInsight(co.Name, controlplane.ClusterOperatorProgress(co, target, mcoImage, nil, now)))
	}
	for _, cv := range c.ClusterVersions {
		status, healthInsights, _ := controlplane.Assess(cv, operators, hosted.Standalone, mcoImage, nil, nil, now)
		insights = append(insights, clusterVersionInsight(cv.Name, status))
		insights = appendHealth(insights, healthInsights, now)
	}
	insights = append(insights, c.nodeInsights(target, migrating, now)...)
	insights = append(insights, c.alertInsights(insights, now)...)

	sort.SliceStable(insights, func(i, j int) bool {
		if ki, kj := kindOrder[recorded.KindOf(insights[i].Object)], kindOrder[recorded.KindOf(insights[j].Object)]; ki != kj {
			return ki < kj
		}
		return insights[i].Object.GetName() < insights[j].Object.GetName()
	})
	return insights
}

// nodeInsights returns the insights of the pools and their nodes. A pool
// with an invalid node selector has no nodes, as in the operator.
func (c *Cluster) nodeInsights(target string, migrating bool, now time.Time) []Insight {
	pools, _ := nodes.NewPools(c.MachineConfigPools)
	versions := nodes.VersionsOf(c.MachineConfigs)
	var insights []Insight
	members := map[string][]*nodes.Assessment{}
	for _, node := range c.Nodes {
		pool := pools.Of(node.Labels)
		if pool == nil {
			continue
		}
		a, healthInsights, _ := nodes.Assess(nodes.Input{
			Node: node, Pool: pool, Versions: versions, Target: target, Migrating: migrating, PerNode: nodes.DefaultPerNodeTime, Now: now,
		})
		insights = append(insights, nodeInsight(node.Name, a.Status))
		members[pool.Name] = append(members[pool.Name], &a)
		insights = appendHealth(insights, healthInsights, now)
	}
	for _, pool := range c.MachineConfigPools {
		if pools.Get(pool.Name) == nil {
			continue
		}
		status, healthInsights, _ := nodes.AssessPool(pool, members[pool.Name], nil, nil, now)
		insights = append(insights, poolInsight(pool.Name, status))
		insights = appendHealth(insights, healthInsights, now)
	}
	return insights
}

// alertInsights returns the insights of the alerts that matter to the
// update in progress, if one is, which the pools' insights help tell.
func (c *Cluster) alertInsights(computed []Insight, now time.Time) []Insight {
	if len(c.ClusterVersions) == 0 {
		return nil
	}
	var pools []*insightsv1alpha1.MachineConfigPoolProgressInsightStatus
	for _, i := range computed {
		if pool, ok := i.Object.(*insightsv1alpha1.MachineConfigPoolProgressInsight); ok {
			pools = append(pools, &pool.Status)
		}
	}
	started, updating := health.UpdateStart(c.ClusterVersions[0], pools)
	if !updating {
		return nil
	}
	return appendHealth(nil, health.ForAlerts(c.Alerts, started), now)
}

// appendHealth appends health insights. A condition whose start the cluster
// does not record starts when the operator first reports it, now, unless it
// is undated, as the operator writes them. They have
// neither the label naming the controller that manages them nor the owner
// reference to the insight they tell about: the owner's UID is one only an
// API server assigns, and status reads neither.
func appendHealth(insights []Insight, healthInsights []health.Insight, now time.Time) []Insight {
	for _, h := range healthInsights {
		if h.Status.StartedAt.IsZero() && !h.Undated {
			h.Status.StartedAt.Time = now
		}
		insights = append(insights, healthInsight(h.Name, h.Status))
	}
	return insights
}

// MachineConfigOperatorImage is the image the recorded
// machine-config-operator Deployment runs; empty without one.
func (c *Cluster) MachineConfigOperatorImage() string {
	for _, d := range c.Deployments {
		if d.Namespace == names.MachineConfigOperatorNamespace && d.Name == names.MachineConfigOperatorDeployment {
			return controlplane.MachineConfigOperatorImage(d)
		}
	}
	return ""
}

func typeMeta(kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: insightsv1alpha1.SchemeGroupVersion.String(), Kind: kind}
}

func clusterVersionInsight(name string, s insightsv1alpha1.ClusterVersionProgressInsightStatus) Insight {
	return Insight{Object: &insightsv1alpha1.ClusterVersionProgressInsight{
		TypeMeta: typeMeta("ClusterVersionProgressInsight"), ObjectMeta: metav1.ObjectMeta{Name: name}, Status: s,
	}}
}

func clusterOperatorInsight(name string, s insightsv1alpha1.ClusterOperatorProgressInsightStatus) Insight {
	return Insight{Object: &insightsv1alpha1.ClusterOperatorProgressInsight{
		TypeMeta: typeMeta("ClusterOperatorProgressInsight"), ObjectMeta: metav1.ObjectMeta{Name: name}, Status: s,
	}}
}

func poolInsight(name string, s insightsv1alpha1.MachineConfigPoolProgressInsightStatus) Insight {
	return Insight{Object: &insightsv1alpha1.MachineConfigPoolProgressInsight{
		TypeMeta: typeMeta("MachineConfigPoolProgressInsight"), ObjectMeta: metav1.ObjectMeta{Name: name}, Status: s,
	}}
}

func nodeInsight(name string, s insightsv1alpha1.NodeProgressInsightStatus) Insight {
	return Insight{Object: &insightsv1alpha1.NodeProgressInsight{
		TypeMeta: typeMeta("NodeProgressInsight"), ObjectMeta: metav1.ObjectMeta{Name: name}, Status: s,
	}}
}

func healthInsight(name string, s insightsv1alpha1.UpdateHealthInsightStatus) Insight {
	return Insight{Object: &insightsv1alpha1.UpdateHealthInsight{
		TypeMeta: typeMeta("UpdateHealthInsight"), ObjectMeta: metav1.ObjectMeta{Name: name}, Status: s,
	}}
}

// List returns the insights as the v1 List that `oc get -o yaml` prints
// for several objects: no insight is an empty list.
func List(insights []Insight) (*unstructured.UnstructuredList, error) {
	list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "List"}}
	for _, i := range insights {
		content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(i.Object)
		if err != nil {
			return nil, err
		}
		dropNeverStored(content)
		list.Items = append(list.Items, unstructured.Unstructured{Object: content})
	}
	return list, nil
}

// dropNeverStored removes what an object that no API server stored
// marshals with but a stored one does not show: a null creationTimestamp,
// and the empty spec the insights all have.
func dropNeverStored(content map[string]any) {
	if timestamp, found, _ := unstructured.NestedFieldNoCopy(content, "metadata", "creationTimestamp"); found && timestamp == nil {
		unstructured.RemoveNestedField(content, "metadata", "creationTimestamp")
	}
	if spec, found, _ := unstructured.NestedMap(content, "spec"); found && len(spec) == 0 {
		delete(content, "spec")
	}
}
