package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/tools/cache"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
)

// observer prints the ClusterVersion insight whenever it changes, and
// remembers what it saw.
type observer struct {
	sawProgressing atomic.Bool
	completed      chan struct{}
	status         *statusObserver

	mu             sync.Mutex
	poolsCompleted map[string]bool
	poolsChanged   chan struct{}
}

func (o *observer) progressing() bool { return o.sawProgressing.Load() }

func watchInsight(ctx context.Context, c *clients, demo *demoInformer) *observer {
	o := &observer{completed: make(chan struct{}), poolsCompleted: map[string]bool{}, poolsChanged: make(chan struct{}, 1)}
	factory := insightinformers.NewSharedInformerFactory(c.insights, 0)
	informer := factory.Insights().V1alpha1().ClusterVersionProgressInsights().Informer()
	var done atomic.Bool
	var last string
	show := func(obj any) {
		i, ok := obj.(*insightsv1alpha1.ClusterVersionProgressInsight)
		if !ok || i.Status.Assessment == "" {
			return
		}
		// Writes that change nothing shown (a new message) print nothing.
		if line := describe(&i.Status); line != last {
			say("insight: %s", line)
			last = line
		}
		switch i.Status.Assessment {
		case insightsv1alpha1.ClusterVersionAssessmentProgressing:
			o.sawProgressing.Store(true)
		case insightsv1alpha1.ClusterVersionAssessmentCompleted:
			if done.CompareAndSwap(false, true) {
				close(o.completed)
			}
		}
	}
	_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    show,
		UpdateFunc: func(_, obj any) { show(obj) },
	})
	// Health insights are shown as they come and go.
	health := factory.Insights().V1alpha1().UpdateHealthInsights().Informer()
	_, _ = health.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if i, ok := obj.(*insightsv1alpha1.UpdateHealthInsight); ok && i.Status.Impact.Summary != "" {
				say("health: %s, %s: %s", i.Status.Impact.Level, i.Status.Impact.Type, i.Status.Impact.Summary)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			o, ok1 := oldObj.(*insightsv1alpha1.UpdateHealthInsight)
			n, ok2 := newObj.(*insightsv1alpha1.UpdateHealthInsight)
			if ok1 && ok2 && (o.Status.Impact.Summary != n.Status.Impact.Summary || o.Status.Impact.Level != n.Status.Impact.Level) {
				say("health: %s, %s: %s", n.Status.Impact.Level, n.Status.Impact.Type, n.Status.Impact.Summary)
			}
		},
		DeleteFunc: func(obj any) {
			if i, ok := obj.(*insightsv1alpha1.UpdateHealthInsight); ok {
				say("health: resolved: %s", i.Status.Impact.Summary)
			}
		},
	})
	watchPools(factory.Insights().V1alpha1().MachineConfigPoolProgressInsights().Informer(), o)
	watchNodes(factory.Insights().V1alpha1().NodeProgressInsights().Informer())
	o.status = watchUpdateStatus(factory, demo)
	factory.Start(ctx.Done())
	return o
}

// watchPools prints a pool's insight when its assessment or completion
// changes, and remembers which pools completed.
func watchPools(informer cache.SharedIndexInformer, o *observer) {
	shown := map[string]string{}
	show := func(obj any) {
		i, ok := obj.(*insightsv1alpha1.MachineConfigPoolProgressInsight)
		if !ok || i.Status.Assessment == "" {
			return
		}
		line := fmt.Sprintf("%-11s %3d%%", i.Status.Assessment, i.Status.CompletionPercent)
		for _, s := range i.Status.Summaries {
			if s.Type == insightsv1alpha1.NodesTotal || s.Type == insightsv1alpha1.NodesProgressing || s.Type == insightsv1alpha1.NodesDegraded {
				line += fmt.Sprintf("  %s %d", s.Type, s.Count)
			}
		}
		if shown[i.Name] == line {
			return
		}
		shown[i.Name] = line
		say("pool %s: %s", i.Name, line)
		o.mu.Lock()
		o.poolsCompleted[i.Name] = i.Status.Assessment == insightsv1alpha1.PoolCompleted
		o.mu.Unlock()
		select {
		case o.poolsChanged <- struct{}{}:
		default:
		}
	}
	_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    show,
		UpdateFunc: func(_, obj any) { show(obj) },
	})
}

// watchNodes prints a node's phase as it changes.
func watchNodes(informer cache.SharedIndexInformer) {
	shown := map[string]string{}
	show := func(obj any) {
		i, ok := obj.(*insightsv1alpha1.NodeProgressInsight)
		if !ok || len(i.Status.Conditions) == 0 {
			return
		}
		line := i.Status.Conditions[0].Reason
		if i.Status.EstimatedToComplete != nil {
			line += fmt.Sprintf(" (est. %s)", i.Status.EstimatedToComplete.Duration)
		}
		if shown[i.Name] != line {
			shown[i.Name] = line
			say("node %s (%s): %s", i.Name, i.Status.PoolResource.Name, line)
		}
	}
	_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    show,
		UpdateFunc: func(_, obj any) { show(obj) },
	})
}

func (o *observer) allPoolsCompleted(pools int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	done := 0
	for _, completed := range o.poolsCompleted {
		if completed {
			done++
		}
	}
	return done == pools
}

// waitForPools waits until the insights of all pools say Completed.
func waitForPools(ctx context.Context, o *observer, pools int, timeout time.Duration) bool {
	deadline := time.After(timeout)
	for !o.allPoolsCompleted(pools) {
		select {
		case <-o.poolsChanged:
		case <-ctx.Done():
			return false
		case <-deadline:
			return false
		}
	}
	return true
}

func describe(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) string {
	line := fmt.Sprintf("%-11s %3d%%  %s", s.Assessment, s.CompletionPercent, s.Versions.Target.Version)
	if p := s.Versions.Previous; p != nil {
		line += " from " + p.Version
	}
	if s.EstimatedCompletedAt != nil {
		line += fmt.Sprintf("  ETA %s", s.EstimatedCompletedAt.Local().Format("15:04"))
	}
	if s.CompletedAt != nil && s.StartedAt != nil {
		line += fmt.Sprintf("  took %s", s.CompletedAt.Sub(s.StartedAt.Time).Round(time.Second))
	}
	return line
}

func waitForCompleted(ctx context.Context, o *observer, timeout time.Duration) bool {
	select {
	case <-o.completed:
		return true
	case <-ctx.Done():
		return false
	case <-time.After(timeout):
		return false
	}
}
