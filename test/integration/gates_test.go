package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	apiserverv1 "github.com/openshift/api/apiserver/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	apiserverclient "github.com/openshift/client-go/apiserver/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	watchapi "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

const (
	// The gate OpenShift 4.15 has for the APIs Kubernetes 1.29 (OpenShift
	// 4.16) removes, and one of those APIs.
	apiRemovalsGate = "ack-4.15-kube-1.29-api-removals-in-4.16"
	apiRemovalsText = "Kubernetes 1.29 and therefore OpenShift 4.16 remove several APIs which require admin consideration. " +
		"Please see the knowledge article https://access.redhat.com/articles/6958395 for details and instructions."
	removedAPI = "flowschemas.v1beta2.flowcontrol.apiserver.k8s.io"

	gateIdentity              = "update-insights-operator/ControlPlane/ConfigMap/openshift-config-managed/admin-gates/admin-gate/" + apiRemovalsGate
	removedAPIIdentity        = "update-insights-operator/ControlPlane/APIRequestCount.apiserver.openshift.io/" + removedAPI + "/removed-api/" + removedAPI
	credentialsIdentity       = "update-insights-operator/ControlPlane/CloudCredential.operator.openshift.io/cluster/cloud-credentials/upgradeable-to"
	removedAPIsUnchecked      = "update-insights-operator/ControlPlane/ClusterOperator.config.openshift.io/kube-apiserver/removed-apis-unchecked"
	credentialsUncheckedIdent = "update-insights-operator/ControlPlane/CloudCredential.operator.openshift.io/cluster/cloud-credentials-unchecked"

	// descriptionIndent continues a description's lines in pre-checks
	// --details.
	descriptionIndent = "               "
)

// createWhatEveryClusterHas creates what the cluster-version and
// cloud-credential operators create on every cluster, and the pre-checks of
// a minor update read: the admin-gates and admin-acks ConfigMaps, with no
// gate, and the CloudCredential, in the default mode.
func createWhatEveryClusterHas(ctx context.Context) error {
	for _, cm := range []*corev1.ConfigMap{
		{ObjectMeta: metav1.ObjectMeta{Namespace: names.ConfigManagedNamespace, Name: names.AdminGates}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: names.ConfigNamespace, Name: names.AdminAcks}},
	} {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: cm.Namespace}}
		if _, err := kubeClient.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
		if _, err := kubeClient.CoreV1().ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	return createDefaultCloudCredential(ctx)
}

func createDefaultCloudCredential(ctx context.Context) error {
	cc := &operatorv1.CloudCredential{ObjectMeta: metav1.ObjectMeta{Name: names.CloudCredential},
		Spec: operatorv1.CloudCredentialSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}}}
	_, err := operatorClient.OperatorV1().CloudCredentials().Create(ctx, cc, metav1.CreateOptions{})
	return err
}

// mergePatch applies a JSON merge patch of what to a ConfigMap, as oc patch
// --type=merge does.
func mergePatchConfigMap(t *testing.T, namespace, name string, patch any) {
	t.Helper()
	raw, err := json.Marshal(patch)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kubeClient.CoreV1().ConfigMaps(namespace).Patch(context.Background(), name, types.MergePatchType, raw, metav1.PatchOptions{}); err != nil {
		t.Fatalf("patching ConfigMap %s/%s with %s: %v", namespace, name, raw, err)
	}
}

// emptyConfigMapsWhenDone leaves the admin gates and acknowledgements as
// the other tests expect them: none.
func emptyConfigMapsWhenDone(t *testing.T) {
	t.Cleanup(func() {
		for _, cm := range []struct{ namespace, name string }{{names.ConfigManagedNamespace, names.AdminGates}, {names.ConfigNamespace, names.AdminAcks}} {
			patch := []byte(`[{"op":"replace","path":"/data","value":{}}]`)
			if _, err := kubeClient.CoreV1().ConfigMaps(cm.namespace).Patch(context.Background(), cm.name, types.JSONPatchType, patch, metav1.PatchOptions{}); err != nil {
				t.Errorf("emptying ConfigMap %s/%s: %v", cm.namespace, cm.name, err)
			}
		}
	})
}

// resetCloudCredentialWhenDone puts back the CloudCredential in the default
// mode, unannotated.
func resetCloudCredentialWhenDone(t *testing.T) {
	t.Cleanup(func() {
		ctx := context.Background()
		if err := operatorClient.OperatorV1().CloudCredentials().Delete(ctx, names.CloudCredential, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting the CloudCredential: %v", err)
		}
		if err := createDefaultCloudCredential(ctx); err != nil {
			t.Errorf("recreating the CloudCredential: %v", err)
		}
	})
}

// setCredentialsMode sets the CloudCredential's mode.
func setCredentialsMode(t *testing.T, mode operatorv1.CloudCredentialsMode) {
	t.Helper()
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"credentialsMode": mode}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := operatorClient.OperatorV1().CloudCredentials().Patch(context.Background(), names.CloudCredential, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatalf("setting the CloudCredential's mode: %v", err)
	}
}

// createAPIRequestCount creates the APIRequestCount of resource, removed in
// removed, with an hour of requests by user (each a list then a get count),
// and deletes it when the test ends.
func createAPIRequestCount(t *testing.T, resource, removed string, users map[string][2]int64) {
	t.Helper()
	ctx := context.Background()
	counts := apiserverClient.ApiserverV1().APIRequestCounts()
	created, err := createAndDelete(t, counts.Create, counts.Delete, &apiserverv1.APIRequestCount{
		ObjectMeta: metav1.ObjectMeta{Name: resource, Labels: map[string]string{apiserverv1.RemovedInReleaseLabel: removed}},
		Spec:       apiserverv1.APIRequestCountSpec{NumberOfUsersToReport: 10},
	})
	if err != nil {
		t.Fatalf("creating APIRequestCount %s: %v", resource, err)
	}
	node := apiserverv1.PerNodeAPIRequestLog{NodeName: "master-0"}
	for _, name := range slices.Sorted(maps.Keys(users)) {
		user := apiserverv1.PerUserAPIRequestCount{UserName: name, UserAgent: "client/v0.0.0"}
		for i, verb := range []string{"list", "get"} {
			if n := users[name][i]; n > 0 {
				user.ByVerb = append(user.ByVerb, apiserverv1.PerVerbAPIRequestCount{Verb: verb, RequestCount: n})
				user.RequestCount += n
			}
		}
		node.ByUser = append(node.ByUser, user)
		node.RequestCount += user.RequestCount
	}
	hour := apiserverv1.PerResourceAPIRequestLog{ByNode: []apiserverv1.PerNodeAPIRequestLog{node}, RequestCount: node.RequestCount}
	created.Status = apiserverv1.APIRequestCountStatus{RemovedInRelease: removed, RequestCount: hour.RequestCount, CurrentHour: hour, Last24h: []apiserverv1.PerResourceAPIRequestLog{hour}}
	if _, err := counts.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the status of APIRequestCount %s: %v", resource, err)
	}
}

// TestPreChecksExplainTheGatesOfAMinorUpdate: on a cluster with an
// unacknowledged gate, an API the target removes still in use, and manual
// cloud credentials not marked ready, the operator's pre-checks of a minor
// update say so, each with the command that answers it; once the gate is
// acknowledged and the credentials marked ready, only the API in use is
// left.
func TestPreChecksExplainTheGatesOfAMinorUpdate(t *testing.T) {
	emptyConfigMapsWhenDone(t)
	resetCloudCredentialWhenDone(t)
	// 4.15.3, offered 4.16.1 (Kubernetes 1.29).
	createClusterVersion(t, nil, plannedStatus())
	deletePlanAtEnd(t, planTarget)
	mergePatchConfigMap(t, names.ConfigManagedNamespace, names.AdminGates, map[string]any{"data": map[string]string{
		apiRemovalsGate: apiRemovalsText, "ack-4.14-kube-1.28-api-removals-in-4.15": "An older gate.",
	}})
	createAPIRequestCount(t, removedAPI, "1.29", map[string][2]int64{"system:serviceaccount:app:legacy-client": {120, 0}, "alice": {0, 3}})
	createAPIRequestCount(t, "flowschemas.v1beta3.flowcontrol.apiserver.k8s.io", "1.32", map[string][2]int64{"alice": {0, 7}})
	createAPIRequestCount(t, "prioritylevelconfigurations.v1beta2.flowcontrol.apiserver.k8s.io", "1.29", nil)
	setCredentialsMode(t, operatorv1.CloudCredentialsModeManual)
	startOperator(t)

	out, errOut, code := command(t, "pre-checks", "--to", planTarget, "--details", "--timeout", "60s")
	t.Logf("pre-checks --to %s --details (exit %d):\n%s%s", planTarget, code, out, errOut)
	for _, want := range []string{
		"Finding: The update to 4.16.1 waits for the administrator to acknowledge " + apiRemovalsGate + ": Kubernetes 1.29 and therefore OpenShift 4.16 remove",
		"  Identity:    " + gateIdentity + "\n",
		"  Reference:   https://access.redhat.com/articles/6958395\n",
		descriptionIndent + `oc -n openshift-config patch configmap admin-acks --patch '{"data":{"` + apiRemovalsGate + `":"true"}}' --type=merge` + "\n",
		"Finding: API " + removedAPI + ", which Kubernetes 1.29 removes, was requested 123 times in the last 24 hours, the most by system:serviceaccount:app:legacy-client\n",
		descriptionIndent + "  system:serviceaccount:app:legacy-client: 120 times (list)\n" + descriptionIndent + "  alice: 3 times (get)\n",
		descriptionIndent + "Admin gate " + apiRemovalsGate + " covers the APIs Kubernetes 1.29 removes: acknowledge it once no client needs them.\n",
		"Finding: Cloud credentials are maintained manually, and CloudCredential cluster does not say they are ready for 4.16: it has no cloudcredential.openshift.io/upgradeable-to annotation\n",
		descriptionIndent + "oc adm release extract --credentials-requests --cloud=<aws|azure|gcp|...> --to=credentials-requests quay.io/release:4.16.1\n",
		descriptionIndent + "oc annotate cloudcredential cluster --overwrite cloudcredential.openshift.io/upgradeable-to=4.16\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pre-checks --details lacks %q", want)
		}
	}
	for _, unwanted := range []string{"flowschemas.v1beta3", "prioritylevelconfigurations", "ack-4.14-kube-1.28"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("pre-checks --details mentions %s, which is no finding", unwanted)
		}
	}
	if code != 1 {
		t.Errorf("pre-checks exit %d, want 1: the findings are not accepted", code)
	}

	// What the commands of the findings do: the merge patch of oc patch,
	// and the annotation.
	mergePatchConfigMap(t, names.ConfigNamespace, names.AdminAcks, map[string]any{"data": map[string]string{apiRemovalsGate: "true"}})
	annotation := []byte(`{"metadata":{"annotations":{"cloudcredential.openshift.io/upgradeable-to":"4.16"}}}`)
	if _, err := operatorClient.OperatorV1().CloudCredentials().Patch(context.Background(), names.CloudCredential, types.MergePatchType, annotation, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	plan := waitFor(t, eventually, "only the API in use and the risk left", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planFindings(p), sorted(alertsUncheckedIdentity, removedAPIIdentity, durationIdentity, riskIdentity))
	})
	for _, i := range plan.Status.ControlPlane.Informers {
		for _, f := range i.Insights {
			if f.Identity == removedAPIIdentity && !strings.Contains(f.Impact.Description, "Admin gate "+apiRemovalsGate+" covers the APIs Kubernetes 1.29 removes, and is acknowledged, although this one is still in use.") {
				t.Errorf("the removed API's description does not say its gate is acknowledged:\n%s", f.Impact.Description)
			}
		}
	}
}

// TestTheChecksOfAnAPITheClusterDoesNotServe: without APIRequestCounts and
// CloudCredentials, the pre-checks of a minor update say what they could
// not check; once the cluster serves them, the operator reads them without
// a restart.
func TestTheChecksOfAnAPITheClusterDoesNotServe(t *testing.T) {
	// Registered first, to run last: the CloudCredential goes with its CRD.
	t.Cleanup(func() {
		if err := createDefaultCloudCredential(context.Background()); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Errorf("recreating the CloudCredential: %v", err)
		}
	})
	reinstall := removeCRDs(t, map[string]string{
		"apirequestcounts.apiserver.openshift.io": "../testdata/crds/kube-apiserver_apirequestcounts.crd.yaml",
		"cloudcredentials.operator.openshift.io":  "../testdata/crds/0000_40_cloud-credential_00_cloudcredentials.crd.yaml",
	})
	createClusterVersion(t, nil, plannedStatus())
	deletePlanAtEnd(t, planTarget)
	op := startOperator(t, "--optional-api-interval=1s")
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(planTarget, planTarget)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, eventually, "the checks that could not run", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planFindings(p), sorted(alertsUncheckedIdentity, credentialsUncheckedIdent, removedAPIsUnchecked, durationIdentity, riskIdentity))
	})

	reinstall()
	waitForServed(t, "apiserver.openshift.io/v1", "apirequestcounts")
	waitForServed(t, "operator.openshift.io/v1", "cloudcredentials")
	if err := createDefaultCloudCredential(context.Background()); err != nil {
		t.Fatal(err)
	}
	createAPIRequestCount(t, removedAPI, "1.29", map[string][2]int64{"alice": {0, 3}})
	waitFor(t, eventually, "the checks run", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planFindings(p), sorted(alertsUncheckedIdentity, removedAPIIdentity, durationIdentity, riskIdentity))
	})
	if !op.Running() || strings.Count(op.output.String(), "operator started") != 1 {
		t.Errorf("the operator did not read the APIs within the process that was running")
	}
}

func sorted(identities ...string) []string {
	slices.Sort(identities)
	return identities
}

// The payload's RBAC lets the operator list and watch the admin-gates and
// admin-acks ConfigMaps and the CloudCredential by name, as its informers
// do, and nothing else of theirs; and read the APIRequestCounts. The
// operator runs as system:masters in the other tests: here the requests
// are made as its ServiceAccount, bound by the manifests' roles.
func TestThePayloadRBACLetsThePreChecksReadWhatTheyRead(t *testing.T) {
	ctx := context.Background()
	var files []string
	for _, file := range []string{"03_clusterrole", "04_clusterrolebinding", "05_role", "06_rolebinding"} {
		files = append(files, "../../manifests/0000_50_update-insights-operator_"+file+".yaml")
	}
	for _, m := range manifestObjects(t, files...) {
		obj, resource, kind := m.obj, m.resource, m.obj.GetKind()
		if ns := obj.GetNamespace(); ns != "" {
			if _, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
				t.Fatal(err)
			}
		}
		if _, err := resource.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s: creating %s %s/%s: %v", m.file, kind, obj.GetNamespace(), obj.GetName(), err)
		}
		t.Cleanup(func() {
			if err := resource.Delete(context.Background(), obj.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %s %s/%s: %v", kind, obj.GetNamespace(), obj.GetName(), err)
			}
		})
	}

	cfg := rest.CopyConfig(testEnv.Config)
	cfg.Impersonate = rest.ImpersonationConfig{
		UserName: "system:serviceaccount:" + names.OwnNamespace + ":update-insights-operator",
		Groups:   []string{"system:serviceaccounts", "system:serviceaccounts:" + names.OwnNamespace, "system:authenticated"},
	}
	asOperator, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	operatorAsOperator, err := operatorclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	apiserverAsOperator, err := apiserverclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	byName := func(name string) metav1.ListOptions {
		return metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String()}
	}
	listAndWatch := func(what string, list func(context.Context, metav1.ListOptions) error, watch func(context.Context, metav1.ListOptions) (watchapi.Interface, error), opts metav1.ListOptions) error {
		if err := list(ctx, opts); err != nil {
			return fmt.Errorf("listing %s: %w", what, err)
		}
		w, err := watch(ctx, opts)
		if err != nil {
			return fmt.Errorf("watching %s: %w", what, err)
		}
		w.Stop()
		return nil
	}
	configMaps := func(namespace string) (func(context.Context, metav1.ListOptions) error, func(context.Context, metav1.ListOptions) (watchapi.Interface, error)) {
		c := asOperator.CoreV1().ConfigMaps(namespace)
		return func(ctx context.Context, o metav1.ListOptions) error { _, err := c.List(ctx, o); return err }, c.Watch
	}
	cloudCredentials := operatorAsOperator.OperatorV1().CloudCredentials()
	listCredentials := func(ctx context.Context, o metav1.ListOptions) error {
		_, err := cloudCredentials.List(ctx, o)
		return err
	}
	counts := apiserverAsOperator.ApiserverV1().APIRequestCounts()
	listCounts := func(ctx context.Context, o metav1.ListOptions) error { _, err := counts.List(ctx, o); return err }

	services := asOperator.CoreV1().Services("informer-namespace")
	listServices := func(ctx context.Context, o metav1.ListOptions) error { _, err := services.List(ctx, o); return err }
	endpointSlices := asOperator.DiscoveryV1().EndpointSlices("informer-namespace")
	listEndpointSlices := func(ctx context.Context, o metav1.ListOptions) error {
		_, err := endpointSlices.List(ctx, o)
		return err
	}

	gatesList, gatesWatch := configMaps(names.ConfigManagedNamespace)
	acksList, acksWatch := configMaps(names.ConfigNamespace)
	for _, err := range []error{
		listAndWatch("admin-gates", gatesList, gatesWatch, byName(names.AdminGates)),
		listAndWatch("admin-acks", acksList, acksWatch, byName(names.AdminAcks)),
		listAndWatch("the CloudCredential", listCredentials, cloudCredentials.Watch, byName(names.CloudCredential)),
		listAndWatch("APIRequestCounts", listCounts, counts.Watch, metav1.ListOptions{}),
		// An UpdateInformer's Service and its EndpointSlices, in any
		// namespace.
		listAndWatch("an informer's Service", listServices, services.Watch, byName("informer")),
		listAndWatch("an informer's EndpointSlices", listEndpointSlices, endpointSlices.Watch, metav1.ListOptions{LabelSelector: discoveryv1.LabelServiceName + "=informer"}),
	} {
		if err != nil {
			t.Errorf("as the operator: %v", err)
		}
	}
	for what, err := range map[string]error{
		"every ConfigMap of openshift-config":         acksList(ctx, metav1.ListOptions{}),
		"every ConfigMap of openshift-config-managed": gatesList(ctx, metav1.ListOptions{}),
		"another ConfigMap of openshift-config":       acksList(ctx, byName("pull-secret")),
		"every CloudCredential":                       listCredentials(ctx, metav1.ListOptions{}),
	} {
		if !apierrors.IsForbidden(err) {
			t.Errorf("listing %s as the operator: %v, want forbidden", what, err)
		}
	}
}
