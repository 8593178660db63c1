package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
)

const (
	// hostedTargetKubernetes is the Kubernetes version of hostedTarget.
	hostedTargetKubernetes = "1.32.5"
	// ibmCloudManaged is the annotation by which the cluster-version
	// operator of a hosted control plane, which runs with the
	// ibm-cloud-managed profile, applies a payload manifest (control-plane-
	// operator/controllers/hostedcontrolplane/v2/cvo/deployment.go): the
	// ClusterOperators of the operators that run in the guest carry it.
	ibmCloudManaged = "include.release.openshift.io/ibm-cloud-managed"
)

// guestOperators are the four operators of the test that run in the guest:
// console already at hostedTarget, dns rolling it out, ingress and network
// still at hostedCurrent.
var guestOperators = []string{"console", "dns", "ingress", "network"}

// hostedUpdateStarted is when the hosted control plane's update began.
var hostedUpdateStarted = metav1.NewTime(time.Now().Add(-25 * time.Minute).Truncate(time.Second))

// hostedMidUpdateStatus is a hosted cluster's ClusterVersion status part
// way from hostedCurrent to hostedTarget, as the cluster-version operator
// on the management cluster writes it.
func hostedMidUpdateStatus() configv1.ClusterVersionStatus {
	s := hostedStatus()
	s.Desired = configv1.Release{Version: hostedTarget, Image: "quay.io/openshift-release-dev/ocp-release@sha256:19"}
	s.AvailableUpdates = nil
	s.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, LastTransitionTime: s.History[0].StartedTime},
		{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: s.History[0].StartedTime},
		{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Reason: "ClusterOperatorsUpdating",
			Message: "Working towards " + hostedTarget + ": 412 of 601 done (68% complete)", LastTransitionTime: hostedUpdateStarted},
	}
	s.History = append([]configv1.UpdateHistory{{Version: hostedTarget, Image: s.Desired.Image, State: configv1.PartialUpdate,
		StartedTime: hostedUpdateStarted}}, s.History...)
	return s
}

// hostedCompletedStatus is hostedMidUpdateStatus once the update is done.
func hostedCompletedStatus() configv1.ClusterVersionStatus {
	s := hostedMidUpdateStatus()
	s.Conditions[2].Status, s.Conditions[2].Reason = configv1.ConditionFalse, ""
	s.Conditions[2].Message, s.Conditions[2].LastTransitionTime = "Cluster version is "+hostedTarget, metav1.Now()
	s.History[0].State, s.History[0].CompletionTime = configv1.CompletedUpdate, &metav1.Time{Time: time.Now().Truncate(time.Second)}
	return s
}

// createGuestOperator creates a ClusterOperator of an operator that runs
// in the guest, at version, Available, not Degraded, Progressing as said,
// and deletes it when the test ends.
func createGuestOperator(t *testing.T, name, version string, progressing bool) {
	t.Helper()
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{ibmCloudManaged: "true"}}}
	created, err := configClient.ConfigV1().ClusterOperators().Create(context.Background(), co, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating ClusterOperator %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := configClient.ConfigV1().ClusterOperators().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting ClusterOperator %s: %v", name, err)
		}
	})
	setGuestOperator(t, created, version, progressing)
}

func setGuestOperator(t *testing.T, co *configv1.ClusterOperator, version string, progressing bool) {
	t.Helper()
	co = co.DeepCopy()
	since := metav1.NewTime(hostedUpdateStarted.Add(5 * time.Minute))
	status := configv1.ConditionFalse
	if progressing {
		status = configv1.ConditionTrue
	}
	co.Status.Versions = []configv1.OperandVersion{{Name: "operator", Version: version}}
	co.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, Reason: "AsExpected", LastTransitionTime: since},
		{Type: configv1.OperatorProgressing, Status: status, Reason: "AsExpected", LastTransitionTime: since},
		{Type: configv1.OperatorDegraded, Status: configv1.ConditionFalse, Reason: "AsExpected", LastTransitionTime: since},
		{Type: configv1.OperatorUpgradeable, Status: configv1.ConditionTrue, Reason: "AsExpected", LastTransitionTime: since},
	}
	if _, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(context.Background(), co, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing ClusterOperator %s status: %v", co.Name, err)
	}
}

// operatorUpdating is the Updating condition of the ClusterOperator
// insights, as "Status Reason", by operator name.
func operatorUpdating(ctx context.Context) (map[string]string, error) {
	list, err := insightsClient.InsightsV1alpha1().ClusterOperatorProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	updating := map[string]string{}
	for _, i := range list.Items {
		updating[i.Name] = ""
		if c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.ClusterOperatorProgressInsightUpdating); c != nil {
			updating[i.Name] = string(c.Status) + " " + c.Reason
		}
	}
	return updating, nil
}

// On a hosted control plane mid-update, the six ClusterOperators of the
// hosted-cluster-config-operator have flipped to the target together, as
// soon as its new pod ran (clusteroperators.go, cmd.go), while one of the
// guest's four operators is there: the operator counts only the guest's
// four, in the insights the API server stores and in what status prints,
// and follows the update to its end.
func TestHostedControlPlaneUpdateCountsOnlyTheGuestsOperators(t *testing.T) {
	// A hosted cluster's payload has no MachineConfig CRDs.
	removeCRDs(t, map[string]string{
		"machineconfigpools.machineconfiguration.openshift.io": "../testdata/crds/0000_80_machine-config_01_machineconfigpools-Default.crd.yaml",
		"machineconfigs.machineconfiguration.openshift.io":     "../testdata/crds/0000_80_machine-config_01_machineconfigs.crd.yaml",
	})
	createHostedInfrastructure(t)
	for _, tc := range []struct {
		name        string
		annotations map[string]string
	}{
		// As written they carry no payload annotation, which keeps them out
		// already.
		{name: "the six as the hosted-cluster-config-operator writes them"},
		// The payload has a manifest for one of them with that annotation,
		// which the cluster-version operator would apply were it not
		// omitted (operator-lifecycle-manager-packageserver in
		// 0000_50_olm_99-operatorstatus.yaml: cvo/deployment.go,
		// manifestsToOmit), and the hosted-cluster-config-operator writes
		// the status only, leaving annotations as they are: kept out by
		// name, they do not depend on it.
		{name: "the six annotated as payload ones", annotations: map[string]string{ibmCloudManaged: "true"}},
	} {
		t.Run(tc.name, func(t *testing.T) { hostedControlPlaneUpdate(t, tc.annotations) })
	}
}

func hostedControlPlaneUpdate(t *testing.T, syntheticAnnotations map[string]string) {
	restoreOwnClusterOperatorWhenDone(t)
	if err := resetOwnClusterOperator(context.Background()); err != nil {
		t.Fatal(err)
	}
	createSyntheticOperatorsAt(t, hostedTarget, hostedTargetKubernetes, syntheticAnnotations)
	createGuestOperator(t, "console", hostedTarget, false)
	createGuestOperator(t, "dns", hostedCurrent, true)
	createGuestOperator(t, "ingress", hostedCurrent, false)
	createGuestOperator(t, "network", hostedCurrent, false)
	createClusterVersion(t, nil, hostedMidUpdateStatus())
	op := startOperator(t)
	ctx := context.Background()

	wantUpdating := map[string]string{"console": "False Updated", "dns": "True Progressing", "ingress": "False Pending", "network": "False Pending"}
	var got map[string]string
	waitFor(t, eventually, "the guest operators' insights", func(ctx context.Context) (*map[string]string, error) {
		u, err := operatorUpdating(ctx)
		return &u, err
	}, func(u *map[string]string) bool {
		got = *u
		for name, want := range wantUpdating {
			if got[name] != want {
				return false
			}
		}
		return true
	})
	// Were the six counted, some could still be unwritten here; the check
	// once the update completed finds them all.
	for name := range syntheticOperators {
		if _, ok := got[name]; ok {
			t.Errorf("ClusterOperator %s, one of the hosted-cluster-config-operator's, has an insight", name)
		}
	}

	// All the ClusterOperators were there before the operator started: its
	// first assessment counts them all.
	insight := waitForInsight(t, eventually, "Progressing toward "+hostedTarget, func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing && i.Status.Versions.Target.Version == hostedTarget
	})
	if insight.Status.CompletionPercent != 25 {
		t.Errorf("completion %d%%, want 25%%: 1 of the guest's 4 operators updated", insight.Status.CompletionPercent)
	}

	health, err := insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range health.Items {
		for _, r := range h.Status.Scope.Resources {
			if _, ok := syntheticOperators[r.Name]; ok && r.Resource == "clusteroperators" {
				t.Errorf("health insight %s names the synthetic ClusterOperator %s", h.Name, r.Name)
			}
		}
	}

	co := waitForOwnClusterOperator(t, eventually, "Available in hosted mode, not Degraded", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, map[configv1.ClusterStatusConditionType]configv1.ConditionStatus{
			configv1.OperatorAvailable: configv1.ConditionTrue, configv1.OperatorDegraded: configv1.ConditionFalse,
		}) && strings.HasPrefix(availableMessage(co), operatorstatus.HostedMode)
	})
	t.Logf("own ClusterOperator Available: %s", availableMessage(co))

	out, errOut, code := command(t, "status")
	t.Logf("status (exit %d):\n%s%s", code, out, errOut)
	for _, want := range []string{"Completion:      25% (1 operators updated, 1 updating, 2 waiting)", "Operator Health: 4 Healthy"} {
		if !strings.Contains(out, want) {
			t.Errorf("status does not print %q", want)
		}
	}
	if strings.Contains(out+errOut, "MachineConfigPool") {
		t.Errorf("status of a hosted cluster speaks of MachineConfigPools")
	}

	for _, name := range guestOperators[1:] {
		current, err := configClient.ConfigV1().ClusterOperators().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		setGuestOperator(t, current, hostedTarget, false)
	}
	setClusterVersionStatus(t, getClusterVersion(t), hostedCompletedStatus())
	done := waitForInsight(t, eventually, "Completed", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted
	})
	if done.Status.CompletionPercent != 100 {
		t.Errorf("completed at %d%%, want 100%%", done.Status.CompletionPercent)
	}
	updating, err := operatorUpdating(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range guestOperators {
		if updating[name] != "False Updated" {
			t.Errorf("ClusterOperator %s's insight Updating %q once the update completed, want False Updated", name, updating[name])
		}
	}
	for name := range syntheticOperators {
		if _, ok := updating[name]; ok {
			t.Errorf("ClusterOperator %s, one of the hosted-cluster-config-operator's, has an insight once the update completed", name)
		}
	}

	if out := op.output.String(); strings.Contains(out, "failed to sync") {
		t.Errorf("a sync failed:\n%s", out)
	}
}
