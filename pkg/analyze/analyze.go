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

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// Cluster is a recorded cluster state.
type Cluster struct {
	ClusterVersions    []*configv1.ClusterVersion
	ClusterOperators   []*configv1.ClusterOperator
	MachineConfigPools []*machineconfigurationv1.MachineConfigPool
	MachineConfigs     []*machineconfigurationv1.MachineConfig
	Nodes              []*corev1.Node
	Deployments        []*appsv1.Deployment
}

// Insight is an insight object as a controller writes it: its kind, name and
// status.
type Insight struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Metadata   Metadata `json:"metadata"`
	Status     any      `json:"status"`
}

// Metadata is the part of an insight's metadata that a controller decides.
type Metadata struct {
	Name string `json:"name"`
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
	target, mcoImage := "", c.machineConfigOperatorImage()
	if len(c.ClusterVersions) > 0 {
		target = c.ClusterVersions[0].Status.Desired.Version
	}
	for _, co := range operators {
		insights = append(insights, insight("ClusterOperatorProgressInsight", co.Name, controlplane.ClusterOperatorProgress(co, target, mcoImage, nil, now)))
	}
	for _, cv := range c.ClusterVersions {
		status, healthInsights, _ := controlplane.Assess(cv, operators, nil, now)
		insights = append(insights, insight("ClusterVersionProgressInsight", cv.Name, status))
		insights = appendHealth(insights, healthInsights, now)
	}
	insights = append(insights, c.nodeInsights(target, now)...)

	sort.SliceStable(insights, func(i, j int) bool {
		if ki, kj := kindOrder[insights[i].Kind], kindOrder[insights[j].Kind]; ki != kj {
			return ki < kj
		}
		return insights[i].Metadata.Name < insights[j].Metadata.Name
	})
	return insights
}

// nodeInsights returns the insights of the pools and their nodes. A pool
// with an invalid node selector has no nodes, as in the operator.
func (c *Cluster) nodeInsights(target string, now time.Time) []Insight {
	pools, _ := nodes.NewPools(c.MachineConfigPools)
	versions := nodes.VersionsOf(c.MachineConfigs)
	var insights []Insight
	members := map[string][]*insightsv1alpha1.NodeProgressInsightStatus{}
	for _, node := range c.Nodes {
		pool := pools.Of(node.Labels)
		if pool == nil {
			continue
		}
		a := nodes.Assess(nodes.Input{
			Node: node, Pool: pool, Versions: versions, Target: target, PerNode: nodes.DefaultPerNodeTime, Now: now,
		})
		insights = append(insights, insight("NodeProgressInsight", node.Name, a.Status))
		members[pool.Name] = append(members[pool.Name], &a.Status)
		healthInsights, _ := health.ForNode(&a, now)
		insights = appendHealth(insights, healthInsights, now)
	}
	for _, pool := range c.MachineConfigPools {
		if pools.Get(pool.Name) == nil {
			continue
		}
		status := nodes.Pool(pool, members[pool.Name], nil, now)
		insights = append(insights, insight("MachineConfigPoolProgressInsight", pool.Name, status))
		insights = appendHealth(insights, health.ForPool(&status), now)
	}
	return insights
}

// appendHealth appends health insights. A condition whose start the cluster
// does not record starts when the operator first reports it: now.
func appendHealth(insights []Insight, healthInsights []health.Insight, now time.Time) []Insight {
	for _, h := range healthInsights {
		if h.Status.StartedAt.IsZero() {
			h.Status.StartedAt.Time = now
		}
		insights = append(insights, insight("UpdateHealthInsight", h.Name, h.Status))
	}
	return insights
}

func (c *Cluster) machineConfigOperatorImage() string {
	for _, d := range c.Deployments {
		if d.Namespace == names.MachineConfigOperatorNamespace && d.Name == names.MachineConfigOperatorDeployment {
			return controlplane.MachineConfigOperatorImage(d)
		}
	}
	return ""
}

func insight(kind, name string, status any) Insight {
	return Insight{
		APIVersion: insightsv1alpha1.SchemeGroupVersion.String(),
		Kind:       kind,
		Metadata:   Metadata{Name: name},
		Status:     status,
	}
}

// List holds insights as a v1 List, as `oc get -o yaml` prints several
// objects.
type List struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Items      []Insight `json:"items"`
}

// NewList returns the v1 List of the insights; no insight is an empty list,
// not a null one.
func NewList(insights []Insight) List {
	l := List{APIVersion: "v1", Kind: "List", Items: insights}
	if l.Items == nil {
		l.Items = []Insight{}
	}
	return l
}
