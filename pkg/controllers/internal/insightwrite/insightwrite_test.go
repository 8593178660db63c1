package insightwrite

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"

	v1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

func poolInsight(name string, status v1alpha1.MachineConfigPoolProgressInsightStatus) *v1alpha1.MachineConfigPoolProgressInsight {
	return &v1alpha1.MachineConfigPoolProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name)}, Status: status}
}

func TestWriteStatus(t *testing.T) {
	progressing := v1alpha1.MachineConfigPoolProgressInsightStatus{Name: "worker", Assessment: v1alpha1.PoolProgressing, CompletionPercent: 40}
	completed := v1alpha1.MachineConfigPoolProgressInsightStatus{Name: "worker", Assessment: v1alpha1.PoolCompleted, CompletionPercent: 100}
	for _, tc := range []struct {
		name        string
		existing    *v1alpha1.MachineConfigPoolProgressInsight
		desired     v1alpha1.MachineConfigPoolProgressInsightStatus
		changed     func(current, desired *v1alpha1.MachineConfigPoolProgressInsightStatus) bool
		wantWrites  []string
		wantWritten bool
	}{
		{
			name:        "a missing insight is created, then its status written",
			desired:     progressing,
			wantWrites:  []string{"create machineconfigpoolprogressinsights worker", "update machineconfigpoolprogressinsights/status worker"},
			wantWritten: true,
		},
		{
			name:     "an unchanged status is not written",
			existing: poolInsight("worker", progressing),
			desired:  progressing,
		},
		{
			name:        "a changed status is written",
			existing:    poolInsight("worker", progressing),
			desired:     completed,
			wantWrites:  []string{"update machineconfigpoolprogressinsights/status worker"},
			wantWritten: true,
		},
		{
			name:     "a status the caller's comparison calls unchanged is not written",
			existing: poolInsight("worker", progressing),
			desired:  completed,
			changed: func(current, desired *v1alpha1.MachineConfigPoolProgressInsightStatus) bool {
				return current.Name != desired.Name
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var objects []runtime.Object
			if tc.existing != nil {
				objects = append(objects, tc.existing)
			}
			client := fake.NewSimpleClientset(objects...)
			w := MachineConfigPoolProgressInsights(client.InsightsV1alpha1())
			if tc.changed != nil {
				w = w.ChangedWhen(tc.changed)
			}
			got, written, err := w.WriteStatus(context.Background(), metav1.ObjectMeta{Name: "worker"}, tc.existing, tc.desired)
			if err != nil {
				t.Fatal(err)
			}
			if written != tc.wantWritten {
				t.Errorf("written = %v, want %v", written, tc.wantWritten)
			}
			if diff := cmp.Diff(tc.wantWrites, controllertest.Writes(client.Actions())); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			stored, err := client.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(context.Background(), "worker", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(stored.Status, got.Status); diff != "" {
				t.Errorf("returned status is not the stored one (-stored +returned):\n%s", diff)
			}
		})
	}
}

func TestWriteStatusReturnsALostRaceAsOne(t *testing.T) {
	resource := schema.GroupResource{Group: v1alpha1.SchemeGroupVersion.Group, Resource: "machineconfigpoolprogressinsights"}
	for _, tc := range []struct {
		name     string
		verb     string
		existing *v1alpha1.MachineConfigPoolProgressInsight
		err      error
	}{
		{name: "the create finds it exists", verb: "create", err: apierrors.NewAlreadyExists(resource, "worker")},
		{name: "the status write conflicts", verb: "update", existing: poolInsight("worker", v1alpha1.MachineConfigPoolProgressInsightStatus{}),
			err: apierrors.NewConflict(resource, "worker", errors.New("the object has been modified"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var objects []runtime.Object
			if tc.existing != nil {
				objects = append(objects, tc.existing)
			}
			client := fake.NewSimpleClientset(objects...)
			client.PrependReactor(tc.verb, "machineconfigpoolprogressinsights", func(clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, tc.err
			})
			_, _, err := MachineConfigPoolProgressInsights(client.InsightsV1alpha1()).WriteStatus(context.Background(),
				metav1.ObjectMeta{Name: "worker"}, tc.existing, v1alpha1.MachineConfigPoolProgressInsightStatus{Name: "worker"})
			if err == nil {
				t.Fatal("no error")
			}
			syncCtx := controllertest.NewSyncContext("pool/worker")
			defer syncCtx.Q.ShutDown()
			if !tracker.RequeueIfRaced(syncCtx, "pool/worker", err) {
				t.Errorf("%v is not recognised as a lost race", err)
			}
		})
	}
}

// recordingHealth records which owners' health insights were reconciled.
type recordingHealth struct {
	synced []metav1.OwnerReference
	err    error
}

func (r *recordingHealth) Sync(_ context.Context, owner metav1.OwnerReference, desired []health.Insight) error {
	if len(desired) > 0 {
		return errors.New("a deletion asked for health insights")
	}
	r.synced = append(r.synced, owner)
	return r.err
}

func TestDelete(t *testing.T) {
	insight := poolInsight("worker", v1alpha1.MachineConfigPoolProgressInsightStatus{})
	owner := MachineConfigPoolProgressInsights(fake.NewSimpleClientset().InsightsV1alpha1()).OwnerReference(insight)
	for _, tc := range []struct {
		name        string
		stored      bool
		health      *recordingHealth
		wantErr     bool
		wantDeletes int
		wantOwners  []metav1.OwnerReference
	}{
		{name: "the health insights go first, then the insight", stored: true, health: &recordingHealth{},
			wantDeletes: 1, wantOwners: []metav1.OwnerReference{owner}},
		{name: "an insight already gone is deleted", health: &recordingHealth{},
			wantDeletes: 1, wantOwners: []metav1.OwnerReference{owner}},
		{name: "without health insights, only the insight", stored: true, wantDeletes: 1},
		{name: "the insight stays while its health insights cannot be deleted", stored: true,
			health: &recordingHealth{err: errors.New("connection refused")}, wantErr: true, wantOwners: []metav1.OwnerReference{owner}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var objects []runtime.Object
			if tc.stored {
				objects = append(objects, insight)
			}
			client := fake.NewSimpleClientset(objects...)
			var healthInsights HealthInsights
			if tc.health != nil {
				healthInsights = tc.health
			}
			err := MachineConfigPoolProgressInsights(client.InsightsV1alpha1()).Delete(context.Background(), insight, healthInsights)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want one: %v", err, tc.wantErr)
			}
			var deletes int
			for _, a := range client.Actions() {
				d, ok := a.(clienttesting.DeleteActionImpl)
				if !ok {
					continue
				}
				deletes++
				if diff := cmp.Diff(&metav1.Preconditions{UID: &insight.UID}, d.DeleteOptions.Preconditions); diff != "" {
					t.Errorf("delete preconditions (-want +got):\n%s", diff)
				}
			}
			if deletes != tc.wantDeletes {
				t.Errorf("%d deletes, want %d", deletes, tc.wantDeletes)
			}
			var owners []metav1.OwnerReference
			if tc.health != nil {
				owners = tc.health.synced
			}
			if diff := cmp.Diff(tc.wantOwners, owners); diff != "" {
				t.Errorf("health insights reconciled for (-want +got):\n%s", diff)
			}
		})
	}
}
