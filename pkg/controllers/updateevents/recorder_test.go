package updateevents

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	"github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
)

// reference is what an Event says about itself and the object it is about.
type reference struct {
	Namespace, Type, Reason, Message, Component string
	Object                                      corev1.ObjectReference
}

// recordedEvents waits for the recorder, which writes asynchronously, to
// have written want Events, and returns them. The wait returns as soon as
// they are written; its limit only has to hold on a busy machine.
func recordedEvents(t *testing.T, ctx context.Context, client *kubefake.Clientset, want int) []reference {
	t.Helper()
	var got []reference
	err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		list, err := client.CoreV1().Events(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		got = nil
		for _, e := range list.Items {
			got = append(got, reference{e.Namespace, e.Type, e.Reason, e.Message, e.Source.Component, e.InvolvedObject})
		}
		return len(got) >= want, nil
	})
	if err != nil {
		t.Fatalf("waiting for %d events, got %v: %v", want, got, err)
	}
	return got
}

// The recorder finds the insight's kind in the scheme: objects from typed
// informers lack TypeMeta, like this one.
func TestNewRecorderReferencesTheInsight(t *testing.T) {
	ctx := context.Background()
	client := kubefake.NewSimpleClientset()
	recorder, stop := NewRecorder(client, "update-insights-operator")
	defer stop()

	insight := &insightsv1alpha1.ClusterVersionProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: "version", UID: "uid-1"}}
	recorder.Event(insight, corev1.EventTypeNormal, ReasonUpdateStarted, "Started installing 4.15.0")

	want := []reference{onVersionInsight(corev1.EventTypeNormal, ReasonUpdateStarted, "Started installing 4.15.0")}
	if diff := cmp.Diff(want, recordedEvents(t, ctx, client, len(want))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// From informer to Event: the sync records on the insight as the informer
// holds it (without TypeMeta), and the Event lands referencing it.
func TestSyncRecordsOnTheInsightFromTheInformer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	insights := fake.NewSimpleClientset(&insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "version", UID: "uid-1"},
		Status:     status("4.14.1", "4.15.0", started, time.Time{}),
	})
	informerFactory := externalversions.NewSharedInformerFactory(insights, 0)
	informers := informerFactory.Insights().V1alpha1()
	kube := kubefake.NewSimpleClientset()
	recorder, stop := NewRecorder(kube, "update-insights-operator")
	defer stop()
	c := &Controller{
		clusterVersions: informers.ClusterVersionProgressInsights().Lister(),
		health:          informers.UpdateHealthInsights().Lister(),
		recorder:        recorder,
	}
	informerFactory.Start(ctx.Done())
	for informer, synced := range informerFactory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			t.Fatalf("informer of %v did not sync", informer)
		}
	}

	must(t, c.sync(ctx, newSyncContext()))
	updated := &insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "version", UID: "uid-1"},
		Status:     status("4.14.1", "4.15.0", started, completed),
	}
	if _, err := insights.InsightsV1alpha1().ClusterVersionProgressInsights().UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		got, err := c.clusterVersions.Get("version")
		return err == nil && got.Status.CompletedAt != nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	must(t, c.sync(ctx, newSyncContext()))

	want := []reference{onVersionInsight(corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed the control plane update to 4.15.0 in 1h12m")}
	if diff := cmp.Diff(want, recordedEvents(t, ctx, kube, len(want))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// onVersionInsight is an Event of the operator about the insight "version"
// (UID uid-1), as it must land: in namespace default, where client-go keeps
// the Events of cluster-scoped objects.
func onVersionInsight(eventType, reason, message string) reference {
	return reference{
		Namespace: metav1.NamespaceDefault,
		Type:      eventType,
		Reason:    reason,
		Message:   message,
		Component: "update-insights-operator",
		Object: corev1.ObjectReference{
			Kind:       "ClusterVersionProgressInsight",
			APIVersion: insightsv1alpha1.SchemeGroupVersion.String(),
			Name:       "version",
			UID:        "uid-1",
		},
	}
}
