package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/olmoperators"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/names"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	olmclient "github.com/update-insights/update-insights-operator/pkg/olm/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	// olmInformer names the insights of OLM's operators in UpdateStatus
	// and UpdatePlans: written out here, as clients read it.
	olmInformer = "operator-lifecycle-manager"
	// olmFixture holds OLM's objects on a cluster running 4.16, as OLM
	// writes them.
	olmFixture = "../testdata/olm/operators.yaml"

	// olmCurrent is the version the fixture's cluster runs; a plan to
	// olmMinorTarget is a minor update, one to olmPatchTarget a patch
	// update.
	olmCurrent     = "4.16.20"
	olmMinorTarget = "4.17.3"
	olmPatchTarget = "4.16.21"

	// The fixture's objects the tests change.
	esNamespace     = "openshift-operators-redhat"
	esInstallPlan   = "install-7xkqp"
	etcdNamespace   = "etcd"
	etcdCSV         = "etcdoperator.v0.9.4"
	olmOffMessage   = "OLMOperators controller: off, the cluster does not serve clusterserviceversions.operators.coreos.com/v1alpha1 and subscriptions.operators.coreos.com/v1alpha1 and installplans.operators.coreos.com/v1alpha1"
	olmOffLog       = `"A controller is off: it starts once the cluster serves what it needs" controller="OLMOperators"`
	olmStartedLog   = `"Starting a controller that was off: the cluster now serves what it needs" controller="OLMOperators"`
	builtinNamesMsg = "update-insights-operator and operator-lifecycle-manager name the operator's built-in informers"
)

// The uids of the findings the fixture's operators make.
const (
	esMaxVersionUID  = "max-openshift-version/openshift-operators-redhat/elasticsearch-operator.v5.8.2"
	esApprovalUID    = "install-plan-approval/openshift-operators-redhat/install-7xkqp"
	etcdUnhealthyUID = "unhealthy/etcd/etcdoperator.v0.9.4"
	fooUnhealthyUID  = "unhealthy/foo/foo-operator.v1.2.0"
	etcdChannelUID   = "deprecated-channel/etcd/etcd"
)

var (
	// olmMinorFindings and olmPatchFindings are what the fixture's
	// operators find of an update from olmCurrent, "uid=level": of a
	// minor update, the elasticsearch operator's cap too. OLM's copy of
	// its CSV in openshift, which declares the same cap, has no finding:
	// the sets are exact.
	olmMinorFindings = levels(esMaxVersionUID+"=error", esApprovalUID+"=warning", etcdUnhealthyUID+"=warning", fooUnhealthyUID+"=warning", etcdChannelUID+"=info")
	olmPatchFindings = levels(esApprovalUID+"=warning", etcdUnhealthyUID+"=warning", fooUnhealthyUID+"=warning", etcdChannelUID+"=info")

	// olmCRDFiles are OLM's published CRDs of the three kinds the
	// operator reads; no other test expects them.
	olmCRDFiles = []string{
		"../testdata/olm/operators.coreos.com_clusterserviceversions.yaml",
		"../testdata/olm/operators.coreos.com_subscriptions.yaml",
		"../testdata/olm/operators.coreos.com_installplans.yaml",
	}
	olmResources = []string{"clusterserviceversions", "subscriptions", "installplans"}
	// olmNamespaces are those of the fixture's objects.
	olmNamespaces = []string{esNamespace, "openshift", etcdNamespace, "foo"}
	// olmUpdateStarted is when the fixture's cluster update started: the
	// etcd operator's CSV left Succeeded after it, the foo operator's
	// before.
	olmUpdateStarted = metav1.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
)

// olmCRDs has OLM's CRDs deleted when the test ends, with every object of
// theirs, and returns a function that installs them and waits until they
// are served. Called before the operator starts, the deletion runs after
// it stopped.
func olmCRDs(t *testing.T) (install func()) {
	t.Helper()
	var crds []string
	for _, r := range olmResources {
		crds = append(crds, r+"."+operatorsv1alpha1.GroupName)
	}
	deleteCRDsAtEnd(t, crds...)
	return func() {
		t.Helper()
		if _, err := envtest.InstallCRDs(testEnv.Config, envtest.CRDInstallOptions{Paths: olmCRDFiles, ErrorIfPathMissing: true}); err != nil {
			t.Fatalf("installing OLM's CRDs: %v", err)
		}
		waitForServed(t, operatorsv1alpha1.SchemeGroupVersion.String(), olmResources...)
	}
}

// olmDynamic is the client of one of OLM's resources in a namespace.
func olmDynamic(resource, namespace string) dynamic.ResourceInterface {
	return dynamic.NewForConfigOrDie(testEnv.Config).Resource(operatorsv1alpha1.SchemeGroupVersion.WithResource(resource)).Namespace(namespace)
}

// createOLMFixtures creates the objects of olmFixture.
func createOLMFixtures(t *testing.T) {
	t.Helper()
	createOLMObjects(t, olmFixture, olmNamespaces, map[string]int{"ClusterServiceVersion": 4, "Subscription": 2, "InstallPlan": 1})
}

// createOLMObjects creates the objects of file, in namespaces, as OLM
// would: each object, then its status through the status subresource,
// since a create drops the status. Every field must be one OLM's CRD knows
// (strict field validation), and the stored status must be the file's:
// nothing pruned or defaulted. The namespaces are created if missing and
// kept (the test API server runs no namespace controller, which a deleted
// namespace would wait for); the objects go with the CRDs. kinds is how
// many objects of each kind the file holds.
func createOLMObjects(t *testing.T, file string, namespaces []string, kinds map[string]int) {
	t.Helper()
	ctx := context.Background()
	for _, ns := range namespaces {
		_, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	created := map[string]int{}
	for _, m := range manifestObjects(t, file) {
		obj := m.obj
		what := fmt.Sprintf("%s %s/%s", obj.GetKind(), obj.GetNamespace(), obj.GetName())
		stored, err := m.resource.Create(ctx, obj, metav1.CreateOptions{FieldValidation: metav1.FieldValidationStrict})
		if err != nil {
			t.Fatalf("%s is refused by OLM's CRD: %v", what, err)
		}
		created[obj.GetKind()]++
		status, ok := obj.Object["status"]
		if !ok {
			continue
		}
		withStatus := obj.DeepCopy()
		withStatus.SetResourceVersion(stored.GetResourceVersion())
		stored, err = m.resource.UpdateStatus(ctx, withStatus, metav1.UpdateOptions{FieldValidation: metav1.FieldValidationStrict})
		if err != nil {
			t.Fatalf("the status of %s is refused by OLM's CRD: %v", what, err)
		}
		if diff := cmp.Diff(asJSON(t, status), asJSON(t, stored.Object["status"])); diff != "" {
			t.Errorf("the stored status of %s is not the fixture's (-fixture +stored):\n%s", what, diff)
		}
	}
	if diff := cmp.Diff(kinds, created); diff != "" {
		t.Fatalf("the objects of %s by kind (-want +got):\n%s", file, diff)
	}
}

// asJSON is a decoded value as generic JSON, whatever the numbers were
// decoded as.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// olmCompletedStatus is a ClusterVersion at rest at olmCurrent.
func olmCompletedStatus() configv1.ClusterVersionStatus {
	installed := metav1.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	completed := metav1.NewTime(installed.Add(40 * time.Minute))
	return configv1.ClusterVersionStatus{
		Desired:            configv1.Release{Version: olmCurrent, Image: "quay.io/release:" + olmCurrent},
		ObservedGeneration: 1,
		VersionHash:        "hash",
		Conditions: []configv1.ClusterOperatorStatusCondition{
			{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse, Message: "Cluster version is " + olmCurrent, LastTransitionTime: completed},
			{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: completed},
		},
		History: []configv1.UpdateHistory{{Version: olmCurrent, Image: "quay.io/release:" + olmCurrent, State: configv1.CompletedUpdate,
			StartedTime: installed, CompletionTime: &completed}},
	}
}

// olmUpdatingStatus is the fixture's cluster updating from olmCurrent to
// olmMinorTarget since olmUpdateStarted.
func olmUpdatingStatus() configv1.ClusterVersionStatus {
	s := olmCompletedStatus()
	s.Desired = configv1.Release{Version: olmMinorTarget, Image: "quay.io/release:" + olmMinorTarget}
	s.Conditions[0] = configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue,
		Reason: "ClusterOperatorsUpdating", Message: "Working towards " + olmMinorTarget, LastTransitionTime: olmUpdateStarted}
	s.History = append([]configv1.UpdateHistory{{Version: olmMinorTarget, Image: "quay.io/release:" + olmMinorTarget, State: configv1.PartialUpdate,
		StartedTime: olmUpdateStarted}}, s.History...)
	return s
}

// completeOLMUpdate completes the update olmUpdatingStatus started, as
// the cluster-version operator records it.
func completeOLMUpdate(t *testing.T) {
	t.Helper()
	cv := getClusterVersion(t)
	completed := metav1.Now()
	cv.Status.History[0].State = configv1.CompletedUpdate
	cv.Status.History[0].CompletionTime = &completed
	cv.Status.Conditions[0] = configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse,
		Message: "Cluster version is " + olmMinorTarget, LastTransitionTime: completed}
	setClusterVersionStatus(t, cv, cv.Status)
}

// levelsOf are the uids of an informer's insights with their levels,
// "uid=level", sorted; nil when the informer is absent or has none.
func levelsOf(insights []insightsv1alpha1.UpdateInsight) []string {
	var out []string
	for _, i := range insights {
		out = append(out, i.UID+"="+string(i.Impact.Level))
	}
	slices.Sort(out)
	return out
}

// planLevels are the findings of informer about the plan's control
// plane, as levelsOf has them.
func planLevels(p *insightsv1alpha1.UpdatePlan, informer string) []string {
	if p == nil {
		return nil
	}
	var insights []insightsv1alpha1.UpdateInsight
	for _, i := range p.Status.ControlPlane.Informers {
		if i.Name == informer {
			for _, f := range i.Insights {
				insights = append(insights, f.UpdateInsight)
			}
		}
	}
	return levelsOf(insights)
}

func levels(pairs ...string) []string {
	slices.Sort(pairs)
	return pairs
}

// On a cluster without OLM (OKD without the capability, a hosted control
// plane, plain Kubernetes) the OLM controller is off, and the operator
// says why while healthy, and plans have no OLM findings; once the cluster
// serves OLM's API it starts in the same process: the operators' health
// appears in UpdateStatus, and their findings in the plan.
func TestOLMOperatorsAreOffUntilOLMIsServed(t *testing.T) {
	installOLM := olmCRDs(t)
	restoreOwnClusterOperatorWhenDone(t)
	if err := resetOwnClusterOperator(context.Background()); err != nil {
		t.Fatal(err)
	}
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, olmUpdatingStatus())
	op := startOperator(t, "--optional-api-interval=1s")

	co := waitForOwnClusterOperator(t, eventually, "healthy, the OLM controller off", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && strings.Contains(availableMessage(co), olmOffMessage)
	})
	t.Logf("Available=True: %q", availableMessage(co))
	op.waitForOutput(t, olmOffLog, eventually)
	// The operator reports the update meanwhile, without OLM's informer.
	s := waitFor(t, eventually, "UpdateStatus written during the update", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		return reported(s, updatestatus.BuiltinInformer) != nil
	})
	if r := reported(s, olmInformer); r != nil {
		t.Errorf("UpdateStatus holds insights of %s while OLM is not served: %v", olmInformer, levelsOf(r.Insights))
	}
	// A plan is evaluated without OLM's findings meanwhile.
	const planTarget = "4.17.4"
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(planTarget, planTarget)); err != nil {
		t.Fatal(err)
	}
	p := waitFor(t, eventually, "the plan evaluated", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return len(planLevels(p, updatestatus.BuiltinInformer)) > 0
	})
	if found := planLevels(p, olmInformer); found != nil {
		t.Errorf("the plan holds findings of %s while OLM is not served: %v", olmInformer, found)
	}

	installOLM()
	createOLMFixtures(t)
	op.waitForOutput(t, olmStartedLog, eventually)
	waitForOwnClusterOperator(t, eventually, "healthy, the OLM controller on", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && !strings.Contains(availableMessage(co), "OLMOperators controller")
	})
	waitFor(t, eventually, "the OLM operators' health in UpdateStatus", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		r := reported(s, olmInformer)
		return r != nil && slices.Equal(uidsOf(r), []string{etcdUnhealthyUID, fooUnhealthyUID})
	})
	// The cluster updates to olmMinorTarget, 4.17.3, already: as the
	// cluster-version operator sees it, from its status.desired, the plan
	// for 4.17.4 is a patch update, which no olm.maxOpenShiftVersion holds
	// back.
	waitFor(t, eventually, "the OLM operators' findings in the plan", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planLevels(p, olmInformer), olmPatchFindings)
	})
	if !op.Running() || strings.Count(op.output.String(), "operator started") != 1 {
		t.Errorf("the OLM controller did not start within the process that was running")
	}
}

// An UpdatePlan holds the findings of OLM's operators under their own
// informer: the operator capped below the target's minor release, the
// update waiting for approval, the unhealthy operators and the
// deprecated channel, and nothing of OLM's copies of a CSV; a patch
// update is not capped. A CSV that succeeds again leaves the plans as
// OLM's objects change; the approved update leaves them once they are
// evaluated again.
func TestOLMFindingsInAnUpdatePlan(t *testing.T) {
	olmCRDs(t)()
	createOLMFixtures(t)
	createClusterVersion(t, nil, olmCompletedStatus())
	startOperator(t)

	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	for _, target := range []string{olmMinorTarget, olmPatchTarget} {
		if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(target, target)); err != nil {
			t.Fatal(err)
		}
	}
	minor, patch := olmMinorFindings, olmPatchFindings
	minorPlan := waitFor(t, eventually, "the OLM findings of the plan to "+olmMinorTarget, getPlan(olmMinorTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planLevels(p, olmInformer), minor)
	})
	waitFor(t, eventually, "the OLM findings of the plan to "+olmPatchTarget, getPlan(olmPatchTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planLevels(p, olmInformer), patch)
	})
	for _, i := range minorPlan.Status.ControlPlane.Informers {
		for _, f := range i.Insights {
			for _, r := range f.Scope.Resources {
				if r.Namespace == "openshift" {
					t.Errorf("finding %s of %s is about OLM's copy %s/%s", f.UID, i.Name, r.Namespace, r.Name)
				}
			}
		}
	}

	without := func(all []string, uid string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return strings.HasPrefix(s, uid+"=") })
	}

	// What OLM's objects hold is watched: the etcd operator's CSV
	// succeeds again, and its finding leaves both plans without a new
	// request. The operator evaluates every plan again a moment after
	// its ClusterOperator changes, which it does until it reports itself
	// healthy at its version; that is waited for, and the moment let
	// pass, so that the watch of OLM's objects is what evaluates them
	// here. (A slower evaluation passes all the same: only a missing
	// watch could then go unnoticed.)
	waitForOwnClusterOperator(t, eventually, "healthy at its version", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && len(co.Status.Versions) == 1 && co.Status.Versions[0].Version == testVersion
	})
	time.Sleep(updateplan.Coalesce + time.Second)
	succeedAgain(t, etcdNamespace, etcdCSV)
	minor, patch = without(minor, etcdUnhealthyUID), without(patch, etcdUnhealthyUID)
	for target, want := range map[string][]string{olmMinorTarget: minor, olmPatchTarget: patch} {
		waitFor(t, eventually, "the plan to "+target+" without the etcd operator's finding", getPlan(target), func(p *insightsv1alpha1.UpdatePlan) bool {
			return slices.Equal(planLevels(p, olmInformer), want)
		})
	}

	// The administrator approves the InstallPlan, OLM starts installing
	// it, and the administrator asks for the plans again.
	ctx := context.Background()
	installPlans := olmDynamic("installplans", esNamespace)
	if _, err := installPlans.Patch(ctx, esInstallPlan, types.MergePatchType, []byte(`{"spec":{"approved":true}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := installPlans.Patch(ctx, esInstallPlan, types.MergePatchType, []byte(`{"status":{"phase":"Installing"}}`), metav1.PatchOptions{}, "status"); err != nil {
		t.Fatal(err)
	}
	minor, patch = without(minor, esApprovalUID), without(patch, esApprovalUID)
	for target, want := range map[string][]string{olmMinorTarget: minor, olmPatchTarget: patch} {
		requestEvaluation(t, target, "approved")
		waitFor(t, eventually, "the plan to "+target+" evaluated again without the approval", getPlan(target), func(p *insightsv1alpha1.UpdatePlan) bool {
			return p != nil && p.Status.ObservedEvaluationRequest == "approved" && slices.Equal(planLevels(p, olmInformer), want)
		})
	}
}

// requestEvaluation sets the evaluation request of the plan named name,
// as an administrator asking for its findings again does.
func requestEvaluation(t *testing.T, name, request string) {
	t.Helper()
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p, err := plans.Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		p.Spec.EvaluationRequest = request
		_, err = plans.Update(context.Background(), p, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Fatalf("requesting an evaluation of UpdatePlan %s: %v", name, err)
	}
}

// succeedAgain moves a CSV back to Succeeded, as OLM does once its
// deployment is available again: the phase, and an entry in its phase
// history.
func succeedAgain(t *testing.T, namespace, name string) {
	t.Helper()
	ctx := context.Background()
	csvs := olmDynamic("clusterserviceversions", namespace)
	csv, err := csvs.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
	succeeded := map[string]any{"phase": "Succeeded", "reason": "InstallSucceeded", "message": "install strategy completed with no errors",
		"lastUpdateTime": now, "lastTransitionTime": now}
	history, _, err := unstructured.NestedSlice(csv.Object, "status", "conditions")
	if err != nil || len(history) == 0 {
		t.Fatalf("the phase history of CSV %s/%s: %v, error %v", namespace, name, history, err)
	}
	for field, value := range succeeded {
		if err := unstructured.SetNestedField(csv.Object, value, "status", field); err != nil {
			t.Fatal(err)
		}
	}
	if err := unstructured.SetNestedSlice(csv.Object, append(history, succeeded), "status", "conditions"); err != nil {
		t.Fatal(err)
	}
	if _, err := csvs.UpdateStatus(ctx, csv, metav1.UpdateOptions{FieldValidation: metav1.FieldValidationStrict}); err != nil {
		t.Fatalf("writing the status of CSV %s/%s: %v", namespace, name, err)
	}
}

// While the cluster updates, UpdateStatus holds the health of OLM's
// operators: an error for the one that stopped succeeding during the
// update, a warning for the one unhealthy from before; the first leaves
// once its CSV succeeds again, and both once the update completes.
func TestOLMHealthDuringAnUpdate(t *testing.T) {
	olmCRDs(t)()
	createOLMFixtures(t)
	deleteUpdateStatusAtEnd(t)
	if err := insightsClient.InsightsV1alpha1().UpdateStatuses().Delete(context.Background(), insightsv1alpha1.UpdateStatusName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	createClusterVersion(t, nil, olmUpdatingStatus())
	startOperator(t)

	olmInsights := func(want []string) func(*insightsv1alpha1.UpdateStatus) bool {
		return func(s *insightsv1alpha1.UpdateStatus) bool {
			r := reported(s, olmInformer)
			if want == nil {
				return s != nil && r == nil
			}
			return r != nil && !r.Stale && slices.Equal(levelsOf(r.Insights), want)
		}
	}
	s := waitFor(t, eventually, "the OLM operators' health in UpdateStatus", getUpdateStatus,
		olmInsights(levels(etcdUnhealthyUID+"=error", fooUnhealthyUID+"=warning")))
	for _, i := range reported(s, olmInformer).Insights {
		if i.Scope.Type != insightsv1alpha1.ScopeTypeControlPlane || len(i.Scope.Resources) == 0 || i.Scope.Resources[0].Kind != "ClusterServiceVersion" {
			t.Errorf("insight %s is about %+v, want the control plane and the CSV", i.UID, i.Scope)
		}
	}

	// The etcd operator's deployment is available again: OLM moves its
	// CSV back to Succeeded.
	succeedAgain(t, etcdNamespace, etcdCSV)
	waitFor(t, eventually, "the etcd operator's insight gone, the foo operator's kept", getUpdateStatus, olmInsights(levels(fooUnhealthyUID+"=warning")))

	// The update completes.
	completeOLMUpdate(t)
	waitFor(t, eventually, "the OLM operators' insights gone once the update completed", getUpdateStatus, olmInsights(nil))
}

// The names of the operator's built-in informers are not an
// UpdateInformer's: the API server refuses them, and accepts others.
func TestOLMBuiltinInformerNamesAreReserved(t *testing.T) {
	c := insightsClient.InsightsV1alpha1().UpdateInformers()
	for _, name := range []string{olmInformer, updatestatus.BuiltinInformer} {
		_, err := createAndDelete(t, c.Create, c.Delete, urlInformer(name, "https://informer.example.com"))
		if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), builtinNamesMsg) {
			t.Errorf("an UpdateInformer named %s: want a refusal that says %q, got %v", name, builtinNamesMsg, err)
		}
	}
	if _, err := createAndDelete(t, c.Create, c.Delete, urlInformer("olm-operators", "https://informer.example.com")); err != nil {
		t.Errorf("an UpdateInformer named olm-operators was refused: %v", err)
	}
}

// The operator reads OLM's objects with the grants of its manifests
// alone: its informers of CSVs (OLM's copies filtered out by the API
// server), Subscriptions and InstallPlans, built as the operator builds
// them and run here as its ServiceAccount, list and watch without a
// refusal and make the plan's findings; and the ServiceAccount cannot
// approve an InstallPlan.
func TestOLMOperatorReadsWithItsRBAC(t *testing.T) {
	ctx := context.Background()
	olmCRDs(t)()
	createOLMFixtures(t)
	var files []string
	for _, file := range []string{"03_clusterrole", "04_clusterrolebinding"} {
		files = append(files, "../../manifests/0000_50_update-insights-operator_"+file+".yaml")
	}
	for _, m := range manifestObjects(t, files...) {
		if _, err := m.resource.Create(ctx, m.obj, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating %s %s: %v", m.obj.GetKind(), m.obj.GetName(), err)
		}
		deleteAtEnd(t, m.obj.GetKind()+" "+m.obj.GetName(), func(ctx context.Context, name string, o metav1.DeleteOptions) error {
			return m.resource.Delete(ctx, name, o)
		}, m.obj.GetName())
	}

	config := rest.CopyConfig(testEnv.Config)
	config.Impersonate = rest.ImpersonationConfig{
		UserName: "system:serviceaccount:" + names.OwnNamespace + ":update-insights-operator",
		Groups:   []string{"system:serviceaccounts", "system:serviceaccounts:" + names.OwnNamespace, "system:authenticated"},
	}
	requests := &requestCounter{}
	config.Wrap(requests.wrap)
	client, err := olmclient.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	informers := olmoperators.NewInformers(client, 0)
	listers, all := informers.Listers()
	runCtx, cancel := context.WithCancel(ctx)
	t.Cleanup(func() { cancel(); informers.Shutdown() })
	informers.Start(runCtx.Done())
	syncCtx, syncCancel := context.WithTimeout(runCtx, eventually)
	defer syncCancel()
	synced := make([]cache.InformerSynced, len(all))
	for i, informer := range all {
		synced[i] = informer.HasSynced
	}
	if !cache.WaitForCacheSync(syncCtx.Done(), synced...) {
		t.Fatalf("OLM's caches did not sync as the operator: %s", requests)
	}

	answer, err := listers.Plan(olmCurrent, olmMinorTarget, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := olmMinorFindings
	if answer.Informer != olmInformer || !slices.Equal(levelsOf(answer.Insights), want) {
		t.Errorf("read as the operator, the findings of %s are %v, want %s's %v", answer.Informer, levelsOf(answer.Insights), olmInformer, want)
	}
	cached, err := listers.CSVs.List(labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	var csvs []string
	for _, csv := range cached {
		csvs = append(csvs, csv.Namespace+"/"+csv.Name)
	}
	slices.Sort(csvs)
	if diff := cmp.Diff([]string{"etcd/etcdoperator.v0.9.4", "foo/foo-operator.v1.2.0", "openshift-operators-redhat/elasticsearch-operator.v5.8.2"}, csvs); diff != "" {
		t.Errorf("the cached CSVs (-want +got), OLM's copy left out by the API server:\n%s", diff)
	}

	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		for _, r := range olmResources {
			if requests.count("watch "+r)+requests.count("watch "+r+forbidden) == 0 {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		t.Fatalf("the informers did not open their watches: %s", requests)
	}
	if refused := requests.refused(); len(refused) > 0 {
		t.Errorf("the API server refused the operator's %v: %s", refused, requests)
	}

	// The operator's client of OLM's objects can only read; a client of
	// its identity that tries to write is refused.
	asOperator, err := dynamic.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	_, err = asOperator.Resource(operatorsv1alpha1.SchemeGroupVersion.WithResource("installplans")).Namespace(esNamespace).
		Patch(ctx, esInstallPlan, types.MergePatchType, []byte(`{"spec":{"approved":true}}`), metav1.PatchOptions{})
	if !apierrors.IsForbidden(err) {
		t.Errorf("approving an InstallPlan as the operator: %v, want forbidden: its grants of OLM's objects are read-only", err)
	}
	ip, err := olmDynamic("installplans", esNamespace).Get(ctx, esInstallPlan, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if approved, _, _ := unstructured.NestedBool(ip.Object, "spec", "approved"); approved {
		t.Errorf("InstallPlan %s/%s was approved as the operator", esNamespace, esInstallPlan)
	}
}

// A restart during an update keeps the health of OLM's operators in
// UpdateStatus: watched from before the restart until the restarted
// operator reports a change of OLM's objects, UpdateStatus never lacks
// it. What the operator kept across the restart is no more than that: an
// update that completed while it was stopped takes the insights away.
func TestOLMHealthSurvivesARestart(t *testing.T) {
	olmCRDs(t)()
	createOLMFixtures(t)
	deleteUpdateStatusAtEnd(t)
	if err := insightsClient.InsightsV1alpha1().UpdateStatuses().Delete(context.Background(), insightsv1alpha1.UpdateStatusName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	createClusterVersion(t, nil, olmUpdatingStatus())
	first := startOperator(t)
	both := levels(etcdUnhealthyUID+"=error", fooUnhealthyUID+"=warning")
	s := waitFor(t, eventually, "the OLM operators' health in UpdateStatus", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		r := reported(s, olmInformer)
		return r != nil && slices.Equal(levelsOf(r.Insights), both)
	})

	ctx := context.Background()
	w, err := insightsClient.InsightsV1alpha1().UpdateStatuses().Watch(ctx, metav1.ListOptions{
		FieldSelector:   fields.OneTermEqualSelector("metadata.name", insightsv1alpha1.UpdateStatusName).String(),
		ResourceVersion: s.ResourceVersion,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	first.stop(t, terminationGracePeriod)
	second := startOperator(t)
	second.waitForOutput(t, "operator started", eventually)
	// The restarted operator reads OLM's objects: once it reports the
	// etcd operator's CSV succeeded, every write of its start is seen.
	succeedAgain(t, etcdNamespace, etcdCSV)
	foo := levels(fooUnhealthyUID + "=warning")
	timeout := time.After(eventually)
	for written, seen := 0, false; !seen; {
		select {
		case event, ok := <-w.ResultChan():
			if !ok {
				t.Fatal("the watch of UpdateStatus ended early")
			}
			status, isStatus := event.Object.(*insightsv1alpha1.UpdateStatus)
			if event.Type != watch.Modified || !isStatus {
				t.Fatalf("UpdateStatus was %s: %v", event.Type, event.Object)
			}
			written++
			r := reported(status, olmInformer)
			if r == nil {
				t.Fatalf("write %d of UpdateStatus after the restart holds no insight of %s", written, olmInformer)
			}
			if got := levelsOf(r.Insights); slices.Equal(got, foo) {
				t.Logf("UpdateStatus was written %d times from the restart until the CSV's change", written)
				seen = true
			} else if !slices.Equal(got, both) {
				t.Fatalf("write %d of UpdateStatus after the restart holds %v of %s, want %v or then %v", written, got, olmInformer, both, foo)
			}
		case <-timeout:
			t.Fatalf("UpdateStatus did not report the etcd operator's CSV succeeded within %s of the restart", eventually)
		}
	}

	// The update completes while the operator is stopped.
	second.stop(t, terminationGracePeriod)
	completeOLMUpdate(t)
	startOperator(t)
	waitFor(t, eventually, "the OLM operators' insights gone after a restart past the update", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		return s != nil && reported(s, olmInformer) == nil
	})
}
