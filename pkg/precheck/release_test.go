package precheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiserverv1 "github.com/openshift/api/apiserver/v1"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
)

// While the cluster updates from 4.16.20 to 4.17.3, every check takes
// 4.17.3 for the cluster's release, as the cluster-version operator does:
// an update to 4.17.5 is a patch update, which neither Upgradeable=False,
// nor an admin gate of 4.16, nor the APIs Kubernetes 1.29 removed, nor
// cloud credentials prepared for 4.16 hold back; an update to 4.18.1 is a
// minor one, from 4.17.
func TestEveryCheckTakesTheReleaseTheClusterVersionOperatorReconciles(t *testing.T) {
	cv := clusterVersion(running("4.16.20"), updatingTo("4.17.3"), offering("4.17.5", "4.18.1"),
		condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, "AdminAckRequired", "Kubernetes 1.31 removes APIs"))
	in := func(target string) Input {
		return Input{
			ClusterVersion: cv, Target: target, Now: now,
			AdminGates:       gatesOf(apiRemovalsGate, apiRemovalsText, "ack-4.17-kube-1.31-api-removals-in-4.18", "Kubernetes 1.31 removes APIs."),
			AdminAcks:        acksOf(),
			APIRequestCounts: []*apiserverv1.APIRequestCount{apiRequestCount("flowschemas.v1beta2.flowcontrol.apiserver.k8s.io", "1.29", []requests{{"system:serviceaccount:a:b", []any{"get", 3}}})},
			CloudCredential:  cloudCredential(operatorv1.CloudCredentialsModeManual, "4.17"),
		}
	}
	for _, tt := range []struct {
		target string
		want   []string
	}{
		{target: "4.17.5", want: []string{uidInProgress}},
		{target: "4.18.1", want: []string{uidInProgress, uidNotUpgradeable, "admin-gate/ack-4.17-kube-1.31-api-removals-in-4.18", removedAPIUIDPrefix + "flowschemas.v1beta2.flowcontrol.apiserver.k8s.io", uidManualCredentials}},
	} {
		t.Run(tt.target, func(t *testing.T) {
			var got []string
			for _, f := range Run(in(tt.target)) {
				if f.UID != uidDuration && f.UID != uidAlertsUnchecked {
					got = append(got, f.UID)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// A release older than the current one: what the cluster-version
// operator's Rollback precondition would do with it.
func TestDowngradeSaysWhatTheClusterVersionOperatorDoes(t *testing.T) {
	for _, tt := range []struct {
		name, target string
		cv           *configv1.ClusterVersion
		want         string
	}{
		{
			name: "the previous release of the z-stream", target: "4.17.1",
			cv:   clusterVersion(running("4.17.1"), updatingTo("4.17.3")),
			want: "would take it, as a rollback to the cluster's previous release 4.17.1 within the z-stream, but such a rollback is not supported",
		},
		{
			name: "the previous release, of another minor", target: "4.16.20",
			cv:   clusterVersion(running("4.16.20"), updatingTo("4.17.3")),
			want: "refuses it (LowDesiredVersion): the only rollback it takes is to the cluster's previous release, 4.16.20, within the same minor",
		},
		{
			name: "an older z-stream than the previous release", target: "4.17.0",
			cv:   clusterVersion(running("4.17.1"), updatingTo("4.17.3")),
			want: "refuses it (LowDesiredVersion): the only rollback it takes is to the cluster's previous release, 4.17.1, within the same minor",
		},
		{
			name: "no previous release", target: "4.16.1",
			cv: clusterVersion(func(cv *configv1.ClusterVersion) {
				cv.Status.History = cv.Status.History[:1]
			}),
			want: "refuses it (LowDesiredVersion): the cluster has no previous release to roll back to",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := notOffered(&Input{ClusterVersion: tt.cv, Target: tt.target, Now: now})
			if len(got) != 1 || got[0].UID != uidDowngrade || !strings.Contains(got[0].Impact.Description, tt.want) {
				t.Errorf("findings %+v, want a downgrade whose description says %q", got, tt.want)
			}
		})
	}
}
