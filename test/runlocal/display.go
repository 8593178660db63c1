package main

import (
	"context"
	"fmt"
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
}

func (o *observer) progressing() bool { return o.sawProgressing.Load() }

func watchInsight(ctx context.Context, c *clients) *observer {
	o := &observer{completed: make(chan struct{})}
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
	factory.Start(ctx.Done())
	return o
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
