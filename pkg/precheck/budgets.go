package precheck

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// The platform's alerts on budgets (cluster-monitoring-operator's
// kube-state-metrics rules): AtLimit, a warning, when a budget allows no
// disruption; Limit, critical, when fewer pods are healthy than it needs.
const (
	alertBudgetAtLimit = "PodDisruptionBudgetAtLimit"
	alertBudgetLimit   = "PodDisruptionBudgetLimit"
)

// blockedBudget is a budget that will hold up a drain: it allows no
// disruption and covers a pod on a node that the update drains.
type blockedBudget struct {
	pdb *policyv1.PodDisruptionBudget
	// drained are the nodes whose drain waits for it, sorted.
	drained []string
	// pool is the first worker pool it holds up, or the control plane's.
	pool string
}

// blockedBudgets are the budgets that hold up a drain, worked out once per
// run: the budget check reports them, and the alert check leaves their
// alerts to it.
func (in *Input) blockedBudgets() []blockedBudget {
	if in.blocked != nil {
		return *in.blocked
	}
	members := in.members()
	byName := map[string]*corev1.Node{}
	for _, n := range in.Nodes {
		byName[n.Name] = n
	}
	out := []blockedBudget{}
	for _, b := range in.Budgets {
		pdb := b.PodDisruptionBudget
		if pdb == nil || pdb.Status.DisruptionsAllowed > 0 {
			continue
		}
		blocked := blockedBudget{pdb: pdb}
		for _, pod := range b.Pods {
			if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
				continue
			}
			node := byName[pod.Spec.NodeName]
			if node == nil {
				continue
			}
			p := members.pools[members.poolOf[node.Name]]
			if p == nil || p.Spec.Paused || slices.Contains(blocked.drained, node.Name) {
				continue
			}
			blocked.drained = append(blocked.drained, node.Name)
			if blocked.pool == "" || nodes.ScopeType(blocked.pool) == insightsv1alpha1.ScopeTypeControlPlane {
				blocked.pool = p.Name
			}
		}
		if len(blocked.drained) == 0 {
			continue
		}
		slices.Sort(blocked.drained)
		out = append(out, blocked)
	}
	in.blocked = &out
	return out
}

// isBudgetAlert tells whether an alert is about a budget, and which.
func isBudgetAlert(a *alerts.Alert) (namespace, name string, ok bool) {
	if n := a.Name(); n != alertBudgetAtLimit && n != alertBudgetLimit {
		return "", "", false
	}
	return a.Labels["namespace"], a.Labels["poddisruptionbudget"], true
}

// disruptionBudgets: a budget that allows no disruption keeps each node
// running one of its pods from draining, and the pool's update waits for
// it. A node in no pool or in a paused pool is not drained. The budget's
// own alerts, when they fire, are quoted in its finding rather than made
// findings of their own: they say the same thing.
func disruptionBudgets(in *Input) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	for _, b := range in.blockedBudgets() {
		pdb := b.pdb
		resources := []insightsv1alpha1.InsightResource{{Group: "policy", Kind: "PodDisruptionBudget", Namespace: pdb.Namespace, Name: pdb.Name}}
		for _, n := range b.drained[:min(len(b.drained), maxResources-1)] {
			resources = append(resources, nodeResource(n))
		}
		f := finding{
			uid: "pdb/" + pdb.Namespace + "/" + pdb.Name, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
			summary: fmt.Sprintf("PodDisruptionBudget %s/%s allows no disruption: the drain of %s will wait for it", pdb.Namespace, pdb.Name, nodeList(b.drained)),
			description: fmt.Sprintf("The budget has %d healthy pods of the %d it needs, so no pod it covers may be evicted. "+
				"The machine-config operator drains a node before updating it, and a drain that cannot evict a pod waits: "+
				"the pool's update stalls on that node until the budget allows a disruption (scale the workload up, or relax the budget).",
				pdb.Status.CurrentHealthy, pdb.Status.DesiredHealthy),
			reference: "https://kubernetes.io/docs/tasks/run-application/configure-pdb/",
		}
		var quoted []string
		for i := range in.Alerts {
			a := &in.Alerts[i]
			namespace, name, ok := isBudgetAlert(a)
			if !ok || a.State == alerts.StatePending || namespace != pdb.Namespace || name != pdb.Name {
				continue
			}
			if a.Labels["severity"] == "critical" {
				f.level = insightsv1alpha1.CriticalInsightLevel
			}
			quoted = append(quoted, fmt.Sprintf("%s alert %s %s. %s", a.Labels["severity"], a.Name(), a.State, alertDetails(a)))
			if len(resources) < maxResources {
				resources = append(resources, alertResource(a))
			}
		}
		if len(quoted) > 0 {
			f.description += "\n\n" + strings.Join(quoted, "\n\n")
		}
		f.scope = nodeScope(b.pool, resources...)
		out = append(out, f.insight(in.Now))
	}
	return out
}
