package planview

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apiserverv1 "github.com/openshift/api/apiserver/v1"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/precheck"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// The operator's findings about the gates of a minor update, as
// pre-checks --details prints them: each with the command that answers it.
func TestWriteTextOfTheGatesOfAMinorUpdate(t *testing.T) {
	const gate = "ack-4.16-kube-1.30-api-removals-in-4.17"
	user := func(name string, verb string, n int64) apiserverv1.PerUserAPIRequestCount {
		return apiserverv1.PerUserAPIRequestCount{UserName: name, RequestCount: n, ByVerb: []apiserverv1.PerVerbAPIRequestCount{{Verb: verb, RequestCount: n}}}
	}
	in := precheck.Input{
		ClusterVersion: &configv1.ClusterVersion{
			ObjectMeta: metav1.ObjectMeta{Name: "version"},
			Status: configv1.ClusterVersionStatus{
				Desired:          configv1.Release{Version: "4.16.3"},
				History:          []configv1.UpdateHistory{{Version: "4.16.3", State: configv1.CompletedUpdate}},
				Conditions:       []configv1.ClusterOperatorStatusCondition{{Type: "Failing", Status: configv1.ConditionFalse}},
				AvailableUpdates: []configv1.Release{{Version: "4.17.2", Image: "quay.io/openshift-release-dev/ocp-release@sha256:4172"}},
			},
		},
		Target: "4.17.2",
		AdminGates: &corev1.ConfigMap{Data: map[string]string{gate: "Kubernetes 1.30 and therefore OpenShift 4.17 remove several APIs which require admin consideration. " +
			"Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions."}},
		AdminAcks: &corev1.ConfigMap{},
		APIRequestCounts: []*apiserverv1.APIRequestCount{{
			ObjectMeta: metav1.ObjectMeta{Name: "flowschemas.v1beta3.flowcontrol.apiserver.k8s.io"},
			Status: apiserverv1.APIRequestCountStatus{RemovedInRelease: "1.30", Last24h: []apiserverv1.PerResourceAPIRequestLog{{RequestCount: 1244, ByNode: []apiserverv1.PerNodeAPIRequestLog{{
				NodeName: "master-0", RequestCount: 1244, ByUser: []apiserverv1.PerUserAPIRequestCount{
					user("system:serviceaccount:openshift-logging:collector", "watch", 1200), user("alice", "get", 44),
				},
			}}}}},
		}},
		CloudCredential: &operatorv1.CloudCredential{ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
			Spec: operatorv1.CloudCredentialSpec{CredentialsMode: operatorv1.CloudCredentialsModeManual}},
		Now: now,
	}
	// The duration estimate is another check's.
	findings := slices.DeleteFunc(precheck.Run(in), func(f insightsv1alpha1.UpdateInsight) bool { return f.UID == "duration" })
	status := updateplan.Compute(updateplan.Input{
		Plan:        &insightsv1alpha1.UpdatePlan{Spec: insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.2"}},
		Answers:     []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: findings}},
		EvaluatedAt: now.Add(-time.Minute), Now: now,
	})
	var b bytes.Buffer
	if err := WriteText(&b, Build(&insightsv1alpha1.UpdatePlan{Spec: insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.2"}, Status: status}), now, true); err != nil {
		t.Fatal(err)
	}
	want := `Update to:  4.17.2
Evaluated:  2026-11-22T19:59:00Z (1m0s ago)

Finding: The update to 4.17.2 waits for the administrator to acknowledge ack-4.16-kube-1.30-api-removals-in-4.17: Kubernetes 1.30 and therefore OpenShift 4.17 remove several APIs which require admin consideration.
  Level:       Error
  Impact:      Update Stalled
  Informer:    update-insights-operator
  Scope:       ControlPlane (ConfigMap/openshift-config-managed/admin-gates)
  Accepted:    No
  Name:        admin-gate/ack-4.16-kube-1.30-api-removals-in-4.17
  Identity:    update-insights-operator/ControlPlane/ConfigMap/openshift-config-managed/admin-gates/admin-gate/ack-4.16-kube-1.30-api-removals-in-4.17
  Reference:   https://access.redhat.com/articles/7031404
  Description: Kubernetes 1.30 and therefore OpenShift 4.17 remove several APIs which require admin consideration. Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions.
               The cluster-version operator starts no minor update until it is acknowledged. Once you have done what it asks, acknowledge it:
               oc -n openshift-config patch configmap admin-acks --patch '{"data":{"ack-4.16-kube-1.30-api-removals-in-4.17":"true"}}' --type=merge

Finding: Cloud credentials are maintained manually, and CloudCredential cluster does not say they are ready for 4.17: it has no cloudcredential.openshift.io/upgradeable-to annotation
  Level:       Error
  Impact:      Update Stalled
  Informer:    update-insights-operator
  Scope:       ControlPlane (CloudCredential.operator.openshift.io/cluster)
  Accepted:    No
  Name:        cloud-credentials/upgradeable-to
  Identity:    update-insights-operator/ControlPlane/CloudCredential.operator.openshift.io/cluster/cloud-credentials/upgradeable-to
  Reference:   https://github.com/openshift/cloud-credential-operator/blob/master/docs/mode-manual-creds.md
  Description: In Manual mode, the cloud-credential operator leaves the cloud credentials to you. Before the update to 4.17.2, check what the CredentialsRequests of 4.17.2 ask for, and create or update the credentials and Secrets they need. List them with:
               oc adm release extract --credentials-requests --cloud=<aws|azure|gcp|...> --to=credentials-requests quay.io/openshift-release-dev/ocp-release@sha256:4172
               Then say the credentials are ready:
               oc annotate cloudcredential cluster --overwrite cloudcredential.openshift.io/upgradeable-to=4.17
               Until the annotation is above 4.16, the cluster's version, the cloud-credential operator reports Upgradeable=False (MissingUpgradeableAnnotation), which blocks minor updates.

Finding: API flowschemas.v1beta3.flowcontrol.apiserver.k8s.io, which Kubernetes 1.30 removes, was requested 1244 times in the last 24 hours, the most by system:serviceaccount:openshift-logging:collector
  Level:       Warning
  Impact:      API Availability
  Informer:    update-insights-operator
  Scope:       ControlPlane (APIRequestCount.apiserver.openshift.io/flowschemas.v1beta3.flowcontrol.apiserver.k8s.io)
  Accepted:    No
  Name:        removed-api/flowschemas.v1beta3.flowcontrol.apiserver.k8s.io
  Identity:    update-insights-operator/ControlPlane/APIRequestCount.apiserver.openshift.io/flowschemas.v1beta3.flowcontrol.apiserver.k8s.io/removed-api/flowschemas.v1beta3.flowcontrol.apiserver.k8s.io
  Reference:   https://kubernetes.io/docs/reference/using-api/deprecation-guide/
  Description: The update to 4.17.2 brings Kubernetes 1.30, which no longer serves flowschemas.v1beta3.flowcontrol.apiserver.k8s.io: the clients still using it fail once the cluster updates, unless they move first to a version that is still served (the reference lists the replacements).
               Its users in the last 24 hours, the most requests first:
                 system:serviceaccount:openshift-logging:collector: 1200 times (watch)
                 alice: 44 times (get)
               Admin gate ack-4.16-kube-1.30-api-removals-in-4.17 covers the APIs Kubernetes 1.30 removes: acknowledge it once no client needs them.
               Who requested it, and with which client:
               oc get apirequestcounts flowschemas.v1beta3.flowcontrol.apiserver.k8s.io -o jsonpath='{range .status.last24h..byUser[*]}{..byVerb[*].verb}{","}{.username}{","}{.userAgent}{"\n"}{end}' | sort -k 2 -t, -u

Answered:   True (AllAnswered) The operator's pre-checks and every informer that handles plans (0) answered.
Accepted:   False (FindingsNotAccepted) 3 of 3 findings are not accepted: admin-gate/ack-4.16-kube-1.30-api-removals-in-4.17, cloud-credentials/upgradeable-to, removed-api/flowschemas.v1beta3.flowcontrol.apiserver.k8s.io.
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
}
