package precheck

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/drain"
)

// The platform's alerts on budgets (cluster-monitoring-operator's
// kube-state-metrics rules): AtLimit, a warning, when a budget allows no
// disruption; Limit, critical, when fewer pods are healthy than it needs.
const (
	alertBudgetAtLimit = "PodDisruptionBudgetAtLimit"
	alertBudgetLimit   = "PodDisruptionBudgetLimit"
)

// wouldBlock is the pre-checks' drain policy, "would this block if the
// cluster updated now": the machine-config operator drains the nodes of an
// update, with its Helper's options (drain.MCO), and a block is a finding
// at once, the drain taken to start now; a finding's level is its own.
var wouldBlock = func() drain.Policy {
	p := drain.MCO
	p.WarnAfter, p.ErrorAfter = 0, 0
	return p
}()

// blockedBudget is what holds up a drain: a budget that keeps a pod on a
// node the update drains from being evicted, or the budgets that all
// select one such pod (drain.MultipleBudgets).
type blockedBudget struct {
	pdbs []*policyv1.PodDisruptionBudget
	// block is the first pod they hold, as the drain model judged it.
	block drain.Pod
	// drained are the nodes whose drain waits for it, sorted.
	drained []string
	// pool is the first worker pool it holds up, or the control plane's.
	pool string
	// order is its first budget's place in Input.Budgets.
	order int
}

// uid is the finding's: one budget's, or the budgets' that all select a pod.
func (b blockedBudget) uid() string {
	if b.block.Reason != drain.MultipleBudgets {
		return "pdb/" + b.pdbs[0].Namespace + "/" + b.pdbs[0].Name
	}
	names := make([]string, len(b.pdbs))
	for i, p := range b.pdbs {
		names[i] = p.Name
	}
	return "pdbs/" + b.pdbs[0].Namespace + "/" + strings.Join(names, "+")
}

// blockedBudgets are what holds up a drain, worked out once per run: the
// drain model judges, under wouldBlock, the pods of the budgets on each
// node of a pool that is not paused (a node in no pool or in a paused pool
// is not drained), and keeps the pods that budgets hold. The budget check
// reports them, and the alert check leaves their budgets' alerts to it.
func (in *Input) blockedBudgets() []blockedBudget {
	if in.blocked != nil {
		return *in.blocked
	}
	members := in.members()
	var pdbs []*policyv1.PodDisruptionBudget
	order := map[*policyv1.PodDisruptionBudget]int{}
	byName := map[string]*policyv1.PodDisruptionBudget{}
	onNode := map[string][]*corev1.Pod{}
	seen := map[string]bool{}
	for _, b := range in.Budgets {
		if b.PodDisruptionBudget == nil {
			continue
		}
		order[b.PodDisruptionBudget] = len(pdbs)
		byName[b.PodDisruptionBudget.Namespace+"/"+b.PodDisruptionBudget.Name] = b.PodDisruptionBudget
		pdbs = append(pdbs, b.PodDisruptionBudget)
		// Each budget's pods are listed on their own: a pod two select
		// is judged once.
		for _, p := range b.Pods {
			if p == nil || seen[p.Namespace+"/"+p.Name] {
				continue
			}
			seen[p.Namespace+"/"+p.Name] = true
			onNode[p.Spec.NodeName] = append(onNode[p.Spec.NodeName], p)
		}
	}
	byUID := map[string]*blockedBudget{}
	for _, n := range in.Nodes {
		p := members.pools[members.poolOf[n.Name]]
		if p == nil || p.Spec.Paused || len(onNode[n.Name]) == 0 {
			continue
		}
		for _, v := range drain.Node(drain.Input{Node: n, Pods: onNode[n.Name], Budgets: pdbs, Policy: wouldBlock, Started: in.Now, Now: in.Now}) {
			if len(v.Budgets) == 0 || v.Level(wouldBlock, in.Now) == "" {
				continue
			}
			b := blockedBudget{block: v, order: len(pdbs)}
			for _, held := range v.Budgets {
				pdb := byName[held.String()]
				b.pdbs = append(b.pdbs, pdb)
				b.order = min(b.order, order[pdb])
			}
			if known, ok := byUID[b.uid()]; ok {
				b = *known
			}
			if !slices.Contains(b.drained, n.Name) {
				b.drained = append(b.drained, n.Name)
			}
			if b.pool == "" || nodes.ScopeType(b.pool) == insightsv1alpha1.ScopeTypeControlPlane {
				b.pool = p.Name
			}
			byUID[b.uid()] = &b
		}
	}
	out := []blockedBudget{}
	for _, b := range byUID {
		slices.Sort(b.drained)
		out = append(out, *b)
	}
	slices.SortFunc(out, func(x, y blockedBudget) int {
		return cmp.Or(cmp.Compare(x.order, y.order), strings.Compare(x.uid(), y.uid()))
	})
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
		var resources []insightsv1alpha1.InsightResource
		for _, pdb := range b.pdbs {
			resources = append(resources, insightsv1alpha1.InsightResource{Group: "policy", Kind: "PodDisruptionBudget", Namespace: pdb.Namespace, Name: pdb.Name})
		}
		for _, n := range b.drained[:min(len(b.drained), maxResources-len(b.pdbs))] {
			resources = append(resources, nodeResource(n))
		}
		f := finding{
			uid: b.uid(), level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
			reference: "https://kubernetes.io/docs/tasks/run-application/configure-pdb/",
		}
		f.summary, f.description = budgetWords(b)
		var quoted []string
		for i := range in.Alerts {
			a := &in.Alerts[i]
			namespace, name, ok := isBudgetAlert(a)
			if !ok || a.State == alerts.StatePending || !slices.ContainsFunc(b.pdbs, func(p *policyv1.PodDisruptionBudget) bool { return namespace == p.Namespace && name == p.Name }) {
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

// drainWaits is what a refused eviction does to the update.
const drainWaits = "The machine-config operator drains a node before updating it, and a drain that cannot evict a pod waits: " +
	"the pool's update stalls on that node until "

// budgetWords are the finding's summary and description, by why the
// eviction API refuses the pods the budgets hold.
func budgetWords(b blockedBudget) (summary, description string) {
	pdb, drained := b.pdbs[0], nodeList(b.drained)
	switch b.block.Reason {
	case drain.MultipleBudgets:
		names := make([]string, len(b.pdbs))
		for i, p := range b.pdbs {
			names[i] = p.Namespace + "/" + p.Name
		}
		return fmt.Sprintf("PodDisruptionBudgets %s select the same pod: the drain of %s will wait for them", strings.Join(names, " and "), drained),
			fmt.Sprintf("Pod %s/%s is selected by more than one budget, and the eviction API refuses to evict such a pod, whatever the budgets allow. ",
				b.block.Namespace, b.block.Name) + drainWaits + "the pod is evicted. " + b.block.Remedy()
	case drain.BudgetNotSynced:
		return fmt.Sprintf("PodDisruptionBudget %s/%s is not synced by the disruption controller: the drain of %s will wait for it", pdb.Namespace, pdb.Name, drained),
			"The disruption controller has not computed the budget's status for its current spec, or could not, and until it has the eviction API refuses to evict any pod the budget covers. " +
				drainWaits + "it has. " + b.block.Remedy()
	}
	return fmt.Sprintf("PodDisruptionBudget %s/%s allows no disruption: the drain of %s will wait for it", pdb.Namespace, pdb.Name, drained),
		fmt.Sprintf("The budget has %d healthy pods of the %d it needs, so no pod it covers may be evicted. ", pdb.Status.CurrentHealthy, pdb.Status.DesiredHealthy) +
			drainWaits + "the budget allows a disruption (scale the workload up, or relax the budget)."
}
