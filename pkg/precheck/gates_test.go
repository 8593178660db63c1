package precheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

const apiRemovalsGate = "ack-4.16-kube-1.30-api-removals-in-4.17"

const (
	apiRemovalsSentence = "Kubernetes 1.30 and therefore OpenShift 4.17 remove several APIs which require admin consideration."
	apiRemovalsText     = apiRemovalsSentence + " Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions."
)

// configMap is a ConfigMap of namespace/name with data as key, value
// pairs.
func configMap(namespace, name string, data ...string) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string]string{}}
	for i := 0; i+1 < len(data); i += 2 {
		cm.Data[data[i]] = data[i+1]
	}
	return cm
}

// waitsFor is the summary of a gate not acknowledged: the first sentence of
// its text.
func waitsFor(target, key, sentence string) string {
	return "The update to " + target + " waits for the administrator to acknowledge " + key + ": " + sentence
}

func gatesOf(data ...string) *corev1.ConfigMap {
	return configMap(names.ConfigManagedNamespace, names.AdminGates, data...)
}

func acksOf(data ...string) *corev1.ConfigMap {
	return configMap(names.ConfigNamespace, names.AdminAcks, data...)
}

func TestAdminGates(t *testing.T) {
	tests := []struct {
		name        string
		cv          *configv1.ClusterVersion // clusterVersion() if nil
		noCV        bool
		target      string
		gates, acks *corev1.ConfigMap
		want        []seen
	}{
		{
			name: "a gate not acknowledged", target: "4.17.2",
			gates: gatesOf(apiRemovalsGate, apiRemovalsText), acks: acksOf(),
			want: []seen{{"admin-gate/" + apiRemovalsGate, "error", waitsFor("4.17.2", apiRemovalsGate, apiRemovalsSentence)}},
		},
		{
			name: "a gate acknowledged", target: "4.17.2",
			gates: gatesOf(apiRemovalsGate, apiRemovalsText), acks: acksOf(apiRemovalsGate, "true"),
		},
		{
			name: "acknowledged with another value than true", target: "4.17.2",
			gates: gatesOf(apiRemovalsGate, apiRemovalsText), acks: acksOf(apiRemovalsGate, "yes"),
			want: []seen{{"admin-gate/" + apiRemovalsGate, "error", waitsFor("4.17.2", apiRemovalsGate, apiRemovalsSentence)}},
		},
		{
			name: "a gate for another version", target: "4.17.2",
			gates: gatesOf("ack-4.15-kube-1.29-api-removals-in-4.16", "Kubernetes 1.29 removes APIs."), acks: acksOf(),
		},
		{
			name: "a patch update, which no gate holds back", target: "4.16.5",
			gates: gatesOf(apiRemovalsGate, apiRemovalsText), acks: acksOf(),
		},
		{
			name: "a target that is not a version counts as a minor update", target: "next",
			gates: gatesOf(apiRemovalsGate, apiRemovalsText), acks: acksOf(),
			want: []seen{{"admin-gate/" + apiRemovalsGate, "error", waitsFor("next", apiRemovalsGate, apiRemovalsSentence)}},
		},
		{
			name: "malformed gates, acknowledged or not", target: "4.17.2",
			gates: gatesOf("ack-4.16-", "No name.", "ack-4.01-zero", "A leading zero.", "gate-4.16-name", "Not ack-.", "ack-4.16-empty", "", "ack-4.15-empty", ""),
			acks:  acksOf("gate-4.16-name", "true", "ack-4.16-empty", "true"),
			want: []seen{
				{"admin-gate/ack-4.01-zero", "warning", "Admin gate ack-4.01-zero of ConfigMap openshift-config-managed/admin-gates is malformed: its version 4.01 is not one: Minor number must not contain leading zeroes \"01\""},
				{"admin-gate/ack-4.16-", "warning", "Admin gate ack-4.16- of ConfigMap openshift-config-managed/admin-gates is malformed: its name does not match ^ack-([4-5][.][0-9]{1,})-[^-]"},
				{"admin-gate/ack-4.16-empty", "warning", "Admin gate ack-4.16-empty of ConfigMap openshift-config-managed/admin-gates is malformed: it applies to this cluster's version, and has no text"},
				{"admin-gate/gate-4.16-name", "warning", "Admin gate gate-4.16-name of ConfigMap openshift-config-managed/admin-gates is malformed: its name does not match ^ack-([4-5][.][0-9]{1,})-[^-]"},
			},
		},
		{
			name: "no admin-gates ConfigMap", target: "4.17.2", acks: acksOf(),
			want: []seen{{uidAdminGatesMissing, "warning", "ConfigMap openshift-config-managed/admin-gates does not exist: which administrator acknowledgements the update to 4.17.2 needs cannot be told"}},
		},
		{
			name: "no admin-acks ConfigMap", target: "4.17.2", gates: gatesOf(apiRemovalsGate, apiRemovalsText),
			want: []seen{
				{uidAdminAcksMissing, "warning", "ConfigMap openshift-config/admin-acks does not exist, so no administrator acknowledgement is recorded"},
				{"admin-gate/" + apiRemovalsGate, "error", waitsFor("4.17.2", apiRemovalsGate, apiRemovalsSentence)},
			},
		},
		{
			name: "no ConfigMap, and a patch update", target: "4.16.5",
		},
		{
			// The cluster-version operator runs the release it updates to,
			// and compares the gates with that.
			name: "mid-update, the gates of the release being updated to apply", target: "4.18.0",
			cv:    clusterVersion(updatingTo("4.17.2")),
			gates: gatesOf(apiRemovalsGate, apiRemovalsText, "ack-4.17-kube-1.31-api-removals-in-4.18", "Kubernetes 1.31 removes APIs."), acks: acksOf(),
			want: []seen{{"admin-gate/ack-4.17-kube-1.31-api-removals-in-4.18", "error", "The update to 4.18.0 waits for the administrator to acknowledge ack-4.17-kube-1.31-api-removals-in-4.18: Kubernetes 1.31 removes APIs."}},
		},
		{
			name: "no ClusterVersion", target: "4.17.2", noCV: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &Input{ClusterVersion: tt.cv, Target: tt.target, AdminGates: tt.gates, AdminAcks: tt.acks, Now: now}
			if in.ClusterVersion == nil && !tt.noCV {
				in.ClusterVersion = clusterVersion()
			}
			if diff := cmp.Diff(tt.want, seenOf(adminGates(in))); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAdminGateFinding(t *testing.T) {
	in := &Input{ClusterVersion: clusterVersion(), Target: "4.17.2", AdminGates: gatesOf(apiRemovalsGate, apiRemovalsText), AdminAcks: acksOf(), Now: now}
	got := adminGates(in)
	if len(got) != 1 {
		t.Fatalf("findings %v, want one", seenOf(got))
	}
	want := apiRemovalsText + "\nThe cluster-version operator starts no minor update until it is acknowledged. Once you have done what it asks, acknowledge it:\n" +
		`oc -n openshift-config patch configmap admin-acks --patch '{"data":{"` + apiRemovalsGate + `":"true"}}' --type=merge`
	if diff := cmp.Diff(want, got[0].Impact.Description); diff != "" {
		t.Errorf("description (-want +got):\n%s", diff)
	}
	if got[0].Remediation.Reference != "https://access.redhat.com/articles/7031404" {
		t.Errorf("reference %q, want the gate's URL", got[0].Remediation.Reference)
	}
	wantScope := controlPlane(insightsv1alpha1.InsightResource{Kind: "ConfigMap", Namespace: "openshift-config-managed", Name: "admin-gates"})
	if diff := cmp.Diff(wantScope, got[0].Scope); diff != "" {
		t.Errorf("scope (-want +got):\n%s", diff)
	}
}
