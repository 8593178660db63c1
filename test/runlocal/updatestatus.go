package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/cache"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
)

// statusObserver prints UpdateStatus's summary, with each UpdateInformer's
// Online condition, when it changes, and remembers what the check needs of
// the demonstration informer.
type statusObserver struct {
	demo *demoInformer

	mu     sync.Mutex
	status *insightsv1alpha1.UpdateStatus
	online map[string]string
	shown  [2]string
	// sawDemoInsight says UpdateStatus held the demonstration informer's
	// warning; firstOnline is the first Online state its UpdateInformer
	// was seen in, and callsWhenOnline how many status calls it had
	// answered when it was first seen Online=True.
	sawDemoInsight  bool
	firstOnline     string
	callsWhenOnline int
	// managed is what it showed of a managed update.
	managed managedSeen
	// olm is what it showed of the failing CSV's insight.
	olm olmSeen
}

func watchUpdateStatus(factory insightinformers.SharedInformerFactory, demo *demoInformer) *statusObserver {
	s := &statusObserver{demo: demo, online: map[string]string{}}
	onStatus := func(obj any) {
		if u, ok := obj.(*insightsv1alpha1.UpdateStatus); ok {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.status = u
			s.sawDemoInsight = s.sawDemoInsight || holdsDemoInsight(u)
			s.managed.observe(u)
			s.olm.observe(u)
			s.show()
		}
	}
	_, _ = factory.Insights().V1alpha1().UpdateStatuses().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    onStatus,
		UpdateFunc: func(_, obj any) { onStatus(obj) },
	})
	onInformer := func(obj any) {
		i, ok := obj.(*insightsv1alpha1.UpdateInformer)
		if !ok {
			return
		}
		online := onlineState(i.Status.Conditions)
		s.mu.Lock()
		defer s.mu.Unlock()
		if i.Name == demoInformerName && s.demo != nil && online != "" {
			if s.firstOnline == "" {
				s.firstOnline = online
			}
			if online == string(metav1.ConditionTrue) && s.callsWhenOnline == 0 {
				s.callsWhenOnline = s.demo.statusCalls()
			}
		}
		s.online[i.Name] = online
		s.show()
	}
	_, _ = factory.Insights().V1alpha1().UpdateInformers().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    onInformer,
		UpdateFunc: func(_, obj any) { onInformer(obj) },
	})
	return s
}

// show prints each line of the summary that changed. The caller holds mu.
func (s *statusObserver) show() {
	lines := [2]string{"update status: " + s.parts(), "informers: " + s.informers()}
	for i, line := range lines {
		if line != s.shown[i] {
			say("%s", line)
			s.shown[i] = line
		}
	}
}

// parts are the control plane's and each worker pool's conditions.
func (s *statusObserver) parts() string {
	// The operator creates UpdateStatus before it first computes it.
	if s.status == nil || len(s.status.Status.ControlPlane.Conditions) == 0 {
		return "none yet"
	}
	parts := []string{"control plane " + conditions(s.status.Status.ControlPlane.Conditions)}
	for _, p := range s.status.Status.WorkerPools {
		parts = append(parts, fmt.Sprintf("pool %s %s", p.Resource.Name, conditions(p.Conditions)))
	}
	return strings.Join(parts, "  ")
}

func conditions(c []metav1.Condition) string {
	var out []string
	for _, t := range []string{insightsv1alpha1.UpdatePending, insightsv1alpha1.UpdateActive} {
		state := "Unknown"
		if cond := meta.FindStatusCondition(c, t); cond != nil {
			state = string(cond.Status) + "/" + cond.Reason
		}
		out = append(out, t+"="+state)
	}
	return strings.Join(out, " ")
}

// informers are each informer's insights by level, over the control plane
// and the pools, and its Online state, in the order of their names: those
// in UpdateStatus and the UpdateInformers that have no insights there.
func (s *statusObserver) informers() string {
	counts := map[string]map[insightsv1alpha1.UpdateInsightLevel]int{}
	stale := map[string]bool{}
	add := func(list []insightsv1alpha1.InformerInsights) {
		for _, i := range list {
			if counts[i.Name] == nil {
				counts[i.Name] = map[insightsv1alpha1.UpdateInsightLevel]int{}
			}
			for _, insight := range i.Insights {
				counts[i.Name][insight.Impact.Level]++
			}
			stale[i.Name] = stale[i.Name] || i.Stale
		}
	}
	if s.status != nil {
		add(s.status.Status.ControlPlane.Informers)
		for _, p := range s.status.Status.WorkerPools {
			add(p.Informers)
		}
	}
	var out []string
	for _, name := range sets.List(sets.KeySet(counts).Union(sets.KeySet(s.online))) {
		var what []string
		for _, level := range []insightsv1alpha1.UpdateInsightLevel{insightsv1alpha1.StatusInsightLevel, insightsv1alpha1.InfoInsightLevel,
			insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.ErrorInsightLevel, insightsv1alpha1.CriticalInsightLevel} {
			if n := counts[name][level]; n > 0 {
				what = append(what, fmt.Sprintf("%d %s", n, level))
			}
		}
		if len(what) == 0 {
			what = append(what, "no insights")
		}
		if stale[name] {
			what = append(what, "stale")
		}
		if online, ok := s.online[name]; ok {
			if online == "" {
				online = "Unknown"
			}
			what = append(what, "Online="+online)
		}
		out = append(out, name+" "+strings.Join(what, ", "))
	}
	if len(out) == 0 {
		return "none yet"
	}
	return strings.Join(out, "  ")
}

// onlineState is True, or False with its reason, or empty before the
// operator has written the condition.
func onlineState(c []metav1.Condition) string {
	cond := meta.FindStatusCondition(c, insightsv1alpha1.InformerOnline)
	switch {
	case cond == nil:
		return ""
	case cond.Status == metav1.ConditionTrue:
		return string(cond.Status)
	default:
		return string(cond.Status) + "/" + cond.Reason
	}
}

func holdsDemoInsight(u *insightsv1alpha1.UpdateStatus) bool {
	for _, i := range u.Status.ControlPlane.Informers {
		if i.Name != demoInformerName {
			continue
		}
		for _, insight := range i.Insights {
			if insight.UID == demoInsightUID && insight.Impact.Level == insightsv1alpha1.WarningInsightLevel {
				return true
			}
		}
	}
	return false
}

// waitForDemoInsight waits until UpdateStatus has held the demonstration
// informer's warning, at most timeout; false when it did not.
func (s *statusObserver) waitForDemoInsight(ctx context.Context, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		s.mu.Lock()
		saw := s.sawDemoInsight
		s.mu.Unlock()
		if saw || time.Now().After(deadline) {
			return saw
		}
		if !sleep(ctx, 100*time.Millisecond) {
			return false
		}
	}
}

// demoChecked says whether UpdateStatus showed the demonstration
// informer's warning, and its UpdateInformer first went Online=True after
// the informer had answered Wait and been asked again; otherwise, what was
// seen instead.
func (s *statusObserver) demoChecked() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ok := s.sawDemoInsight && s.firstOnline == string(metav1.ConditionTrue) && s.callsWhenOnline >= 2
	return ok, fmt.Sprintf("demonstration insight shown=%t, first Online=%q, status calls answered when Online=True was seen: %d",
		s.sawDemoInsight, s.firstOnline, s.callsWhenOnline)
}
