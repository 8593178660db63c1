package nodes

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/update-insights/update-insights-operator/pkg/health"
)

func TestAssessSaysWhenToLookAgain(t *testing.T) {
	for _, tc := range []struct {
		name         string
		node         *corev1.Node
		wantProblems []string
		wantNext     time.Time
	}{
		{
			name:     "a node at the target, fine, needs no look by the clock",
			node:     testNode("done", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), healthy(), false),
			wantNext: time.Time{},
		},
		{
			name:     "an updating node's estimate counts down by the minute",
			node:     testNode("draining", mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig, ""), healthy(), false),
			wantNext: now.Add(time.Minute),
		},
		{
			name:     "a node not ready for two minutes is a problem when its five-minute threshold expires",
			node:     testNode("not-ready", mcd(newConfig, newConfig, "Done", "", "", ""), with(healthy(), condition(corev1.NodeReady, corev1.ConditionFalse, "KubeletNotReady", "", 2*time.Minute)), false),
			wantNext: now.Add(3 * time.Minute),
		},
		{
			name:         "a node not ready for ten minutes is a problem now, with nothing left to wait for",
			node:         testNode("long-not-ready", mcd(newConfig, newConfig, "Done", "", "", ""), with(healthy(), condition(corev1.NodeReady, corev1.ConditionFalse, "KubeletNotReady", "", 10*time.Minute)), false),
			wantProblems: []string{health.NodeUnavailable},
			wantNext:     time.Time{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, insights, next := Assess(Input{Node: tc.node, Pool: testPool(WorkerPool, false), Versions: versions, Target: target, PerNode: DefaultPerNodeTime, Now: now})
			var problems []string
			for _, i := range insights {
				problems = append(problems, i.Problem)
			}
			if diff := cmp.Diff(tc.wantProblems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if !next.Equal(tc.wantNext) {
				t.Errorf("look again at %v, want %v", next, tc.wantNext)
			}
		})
	}
}

func TestAssessPoolReportsAPausedPoolWithOutdatedNodes(t *testing.T) {
	outdated := NodeProgress(Input{Node: testNode("outdated", mcd(oldConfig, oldConfig, "Done", "", "", ""), healthy(), false),
		Pool: testPool(WorkerPool, true), Versions: versions, Target: target, PerNode: DefaultPerNodeTime, Now: now})
	for _, tc := range []struct {
		name         string
		paused       bool
		wantProblems []string
	}{
		{name: "paused", paused: true, wantProblems: []string{health.PausedPoolOutdated}},
		{name: "not paused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, insights, _ := AssessPool(testPool(WorkerPool, tc.paused), []*Assessment{&outdated}, nil, nil, now)
			var problems []string
			for _, i := range insights {
				problems = append(problems, i.Problem)
			}
			if diff := cmp.Diff(tc.wantProblems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
