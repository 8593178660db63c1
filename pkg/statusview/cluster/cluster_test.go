package cluster

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	testingclock "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

var now = time.Date(2024, 8, 5, 17, 23, 22, 0, time.UTC)

func clusterVersion(completion int32) *insightsv1alpha1.ClusterVersionProgressInsight {
	return &insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{
			Name:              "version",
			Assessment:        insightsv1alpha1.ClusterVersionAssessmentProgressing,
			CompletionPercent: completion,
			Versions:          insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.16.1"}},
		},
	}
}

// ownOperatorDegraded is the operator's ClusterOperator with its Degraded
// condition alone.
func ownOperatorDegraded(degraded configv1.ConditionStatus, reason string) *configv1.ClusterOperator {
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: names.OwnClusterOperator}}
	co.Status.Conditions = []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorDegraded, Status: degraded, Reason: reason}}
	return co
}

// notServed makes the fake cluster answer a list of resource as one without
// its CRD does.
func notServed(client *fake.Clientset, resource string) {
	client.PrependReactor("list", resource, func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(insightsv1alpha1.Resource(resource), "")
	})
}

func TestList(t *testing.T) {
	node := &insightsv1alpha1.NodeProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: "worker-0"}}
	operator := &insightsv1alpha1.ClusterOperatorProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: "etcd"}}
	client := fake.NewSimpleClientset(clusterVersion(50), node, operator)
	notServed(client, "updatehealthinsights")
	own := ownOperatorDegraded(configv1.ConditionTrue, "NodeWriteRejected")

	in, err := List(context.Background(), Clients{Insights: client, Config: configfake.NewSimpleClientset(own), Kube: kubefake.NewSimpleClientset(lease(now))})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{"cv": len(in.ClusterVersions), "co": len(in.ClusterOperators), "pool": len(in.MachineConfigPools), "node": len(in.Nodes), "health": len(in.Health)}
	if diff := cmp.Diff(map[string]int{"cv": 1, "co": 1, "pool": 0, "node": 1, "health": 0}, got); diff != "" {
		t.Errorf("insights listed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(own, in.Operator); diff != "" {
		t.Errorf("the operator's ClusterOperator (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&statusview.LeaseReading{Lease: lease(now)}, in.Lease); diff != "" {
		t.Errorf("the operator's Lease (-want +got):\n%s", diff)
	}
}

// lease is the operator's Lease as client-go's leader election writes it,
// held for 137s from renewed.
func lease(renewed time.Time) *coordinationv1.Lease {
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: names.OwnNamespace, Name: names.OwnLease},
		Spec: resourcelock.LeaderElectionRecordToLeaseSpec(&resourcelock.LeaderElectionRecord{
			HolderIdentity: "update-insights-operator-7d9f8b6c5-x2k4q_3f1e2d4c", LeaseDurationSeconds: 137,
			AcquireTime: metav1.NewTime(renewed.Add(-time.Hour)), RenewTime: metav1.NewTime(renewed),
		}),
	}
}

// A Lease that is not there is told apart from one that could not be read:
// the one says the operator does not run, the other that it is not known.
func TestListReadsTheOperatorsLease(t *testing.T) {
	forbidden := kubefake.NewSimpleClientset(lease(now))
	forbidden.PrependReactor("get", "leases", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(coordinationv1.Resource("leases"), names.OwnLease, errors.New("User \"alice\" cannot get resource \"leases\""))
	})
	for _, tc := range []struct {
		name string
		kube *kubefake.Clientset
		want *statusview.LeaseReading
	}{
		{"there", kubefake.NewSimpleClientset(lease(now)), &statusview.LeaseReading{Lease: lease(now)}},
		{"absent", kubefake.NewSimpleClientset(), &statusview.LeaseReading{}},
		{"forbidden", forbidden, &statusview.LeaseReading{Err: `leases.coordination.k8s.io "update-insights-operator-lock" is forbidden: User "alice" cannot get resource "leases"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := List(context.Background(), Clients{Insights: fake.NewSimpleClientset(clusterVersion(50)), Config: configfake.NewSimpleClientset(), Kube: tc.kube})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, in.Lease); diff != "" {
				t.Errorf("the operator's Lease (-want +got):\n%s", diff)
			}
		})
	}
}

// A user who may not read ClusterOperators, or a cluster without the
// operator's, gets the status without what it would add.
func TestListWithoutTheOperatorsClusterOperator(t *testing.T) {
	forbidden := configfake.NewSimpleClientset()
	forbidden.PrependReactor("get", "clusteroperators", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(configv1.Resource("clusteroperators"), "update-insights", errors.New("no"))
	})
	for name, config := range map[string]*configfake.Clientset{"forbidden": forbidden, "absent": configfake.NewSimpleClientset()} {
		t.Run(name, func(t *testing.T) {
			in, err := List(context.Background(), Clients{Insights: fake.NewSimpleClientset(clusterVersion(50)), Config: config, Kube: kubefake.NewSimpleClientset()})
			if err != nil {
				t.Fatal(err)
			}
			if in.Operator != nil {
				t.Errorf("the operator's ClusterOperator is %v, want none", in.Operator)
			}
		})
	}
}

func TestListWithoutInsightAPI(t *testing.T) {
	client := fake.NewSimpleClientset()
	notServed(client, "clusterversionprogressinsights")
	c := Clients{Insights: client, Config: configfake.NewSimpleClientset(), Kube: kubefake.NewSimpleClientset()}
	if _, err := List(context.Background(), c); !errors.Is(err, statusview.ErrNoClusterVersion) {
		t.Errorf("got error %v, want %v", err, statusview.ErrNoClusterVersion)
	}
	if err := Watch(context.Background(), c, &bytes.Buffer{}, testingclock.NewFakePassiveClock(now), statusview.Details{}); !errors.Is(err, statusview.ErrNoClusterVersion) {
		t.Errorf("watch: got error %v, want %v", err, statusview.ErrNoClusterVersion)
	}
}

// screens is a terminal that keeps what was drawn, for a test to wait on.
type screens struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *screens) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// last returns the last screen drawn.
func (s *screens) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := s.b.String()
	if i := strings.LastIndex(all, clearScreen); i >= 0 {
		return all[i+len(clearScreen):]
	}
	return ""
}

// waitFor waits until the last screen shows text. It returns as soon as it
// does; its limit only has to hold on a busy machine.
func (s *screens) waitFor(t *testing.T, text string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(s.last(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q; it shows:\n%s", text, s.last())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWatchRedrawsOnChange plays an operator that starts, then makes
// progress and finds a problem: each shows without a poll.
func TestWatchRedrawsOnChange(t *testing.T) {
	client := fake.NewSimpleClientset()
	insights := client.InsightsV1alpha1()
	own := ownOperatorDegraded(configv1.ConditionFalse, "AsExpected")
	config := configfake.NewSimpleClientset(own)
	ctx, cancel := context.WithCancel(context.Background())
	out := &screens{}
	done := make(chan error)
	go func() {
		done <- Watch(ctx, Clients{Insights: client, Config: config, Kube: kubefake.NewSimpleClientset(lease(now))}, out, testingclock.NewFakePassiveClock(now), statusview.Details{})
	}()

	out.waitFor(t, statusview.ErrNoClusterVersion.Error())
	cv, err := insights.ClusterVersionProgressInsights().Create(ctx, clusterVersion(50), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "[##########----------] 50%\n\n= Control Plane =\n")

	cv.Status.CompletionPercent = 75
	if _, err := insights.ClusterVersionProgressInsights().UpdateStatus(ctx, cv, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "[###############-----] 75%")
	out.waitFor(t, "Completion:      75% ")

	problem := &insightsv1alpha1.UpdateHealthInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "cv-1"},
		Status: insightsv1alpha1.UpdateHealthInsightStatus{Impact: insightsv1alpha1.InsightImpact{
			Level: insightsv1alpha1.ErrorImpactLevel, Type: insightsv1alpha1.UpdateStalledImpactType, Summary: "Cluster Operator etcd is degraded",
		}},
	}
	if _, err := insights.UpdateHealthInsights().Create(ctx, problem, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "Error   Update Stalled   Cluster Operator etcd is degraded")

	own.Status.Conditions[0].Status, own.Status.Conditions[0].Reason = configv1.ConditionTrue, "NodeWriteRejected"
	if _, err := config.ConfigV1().ClusterOperators().UpdateStatus(ctx, own, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "Warning: The update-insights operator is degraded (NodeWriteRejected)")

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("watch ended with %v, want no error once interrupted", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("watch did not stop once interrupted")
	}
}

// The Lease's warning comes first, above the completion bar.
func TestWatchSaysFirstThatTheOperatorDoesNotRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &screens{}
	c := Clients{Insights: fake.NewSimpleClientset(clusterVersion(50)), Config: configfake.NewSimpleClientset(), Kube: kubefake.NewSimpleClientset(lease(now.Add(-time.Hour)))}
	go func() { _ = Watch(ctx, c, out, testingclock.NewFakePassiveClock(now), statusview.Details{}) }()
	out.waitFor(t, "[##########----------] 50%")
	if want := "Warning: What follows may be stale since 2024-08-05T16:23:22Z (1h ago): "; !strings.HasPrefix(out.last(), want) {
		t.Errorf("the screen does not start with %q:\n%s", want, out.last())
	}
}

func TestProgressBar(t *testing.T) {
	testCases := []struct {
		percent int32
		want    string
	}{
		{percent: 0, want: "[--------------------] 0%"},
		{percent: 3, want: "[--------------------] 3%"},
		{percent: 50, want: "[##########----------] 50%"},
		{percent: 100, want: "[####################] 100%"},
		{percent: 120, want: "[####################] 100%"},
	}
	for _, tc := range testCases {
		if got := progressBar(tc.percent); got != tc.want {
			t.Errorf("progressBar(%d) = %q, want %q", tc.percent, got, tc.want)
		}
	}
}
