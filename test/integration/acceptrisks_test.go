package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

const (
	clusterVersionCRD       = "clusterversions.config.openshift.io"
	unknownAcceptRisksField = `unknown field "spec.desiredUpdate.acceptRisks"`
)

// serveAcceptRisks gives the test API server's ClusterVersion
// spec.desiredUpdate.acceptRisks, as a cluster with the
// ClusterUpdateAcceptRisks feature has, until the test ends: the CRD the
// tests install is the Default feature set's, without it.
func serveAcceptRisks(t *testing.T) {
	t.Helper()
	client, err := apiextensionsclient.NewForConfig(testEnv.Config)
	if err != nil {
		t.Fatal(err)
	}
	crds := client.ApiextensionsV1().CustomResourceDefinitions()
	setField := func(field *apiextensionsv1.JSONSchemaProps) error {
		return retry.RetryOnConflict(retry.DefaultRetry, func() error {
			crd, err := crds.Get(context.Background(), clusterVersionCRD, metav1.GetOptions{})
			if err != nil {
				return err
			}
			desired := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["desiredUpdate"]
			if field == nil {
				delete(desired.Properties, "acceptRisks")
			} else {
				desired.Properties["acceptRisks"] = *field
			}
			crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["desiredUpdate"] = desired
			_, err = crds.Update(context.Background(), crd, metav1.UpdateOptions{})
			return err
		})
	}
	field := &apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{
		Type: "object", Required: []string{"name"}, Properties: map[string]apiextensionsv1.JSONSchemaProps{"name": {Type: "string"}},
	}}}
	if err := setField(field); err != nil {
		t.Fatalf("adding acceptRisks to the ClusterVersion CRD: %v", err)
	}
	t.Cleanup(func() {
		if err := setField(nil); err != nil {
			t.Errorf("removing acceptRisks from the ClusterVersion CRD: %v", err)
		}
		// The other tests expect the Default feature set's ClusterVersion.
		if err := waitForAcceptRisks(false); err != nil {
			t.Errorf("the API server still serves acceptRisks in the ClusterVersion: %v", err)
		}
	})
	if err := waitForAcceptRisks(true); err != nil {
		t.Fatalf("the API server did not take acceptRisks in the ClusterVersion's schema: %v", err)
	}
}

// waitForAcceptRisks waits until the API server serves the ClusterVersion's
// acceptRisks, or not: it takes a new schema a moment after the CRD
// changes. A strict dry run of the ClusterVersion "version" says.
func waitForAcceptRisks(served bool) error {
	patch := []byte(`{"spec":{"desiredUpdate":{"acceptRisks":[{"name":"probe"}]}}}`)
	return wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		_, err := configClient.ConfigV1().ClusterVersions().Patch(ctx, "version", types.MergePatchType, patch,
			metav1.PatchOptions{FieldValidation: metav1.FieldValidationStrict, DryRun: []string{metav1.DryRunAll}})
		unknown := err != nil && strings.Contains(err.Error(), unknownAcceptRisksField)
		if err != nil && !unknown {
			return false, err
		}
		return unknown != served, nil
	})
}

// TestUpgradeRecordsAcceptedRisks: on a cluster whose ClusterVersion has
// acceptRisks, the risks accepted in the plan are written there.
func TestUpgradeRecordsAcceptedRisks(t *testing.T) {
	createClusterVersion(t, nil, offeringStatus())
	serveAcceptRisks(t)
	deletePlanAtEnd(t, "4.17.3")
	playPlanController(t, "4.17.3")

	if _, _, code := command(t, "pre-checks", "--to", "4.17.3"); code != 1 {
		t.Errorf("pre-checks: exit %d, want 1", code)
	}
	if _, _, code := command(t, "pre-checks", "--to", "4.17.3", "--accept-all-of", "update-insights-operator,mco"); code != 0 {
		t.Errorf("accepting: exit %d", code)
	}
	out, errOut, code := command(t, "upgrade", "--to", "4.17.3")
	if code != 0 || out != "Requested update to 4.17.3\nAccepted risks in spec.desiredUpdate.acceptRisks: OVNHang\n" {
		t.Errorf("upgrade: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	t.Logf("upgrade (exit %d):\n%s%s", code, out, errOut)
	want := &configv1.Update{Version: "4.17.3", Image: "example.com/release@sha256:3", AcceptRisks: []configv1.AcceptRisk{{Name: "OVNHang"}}}
	if diff := cmp.Diff(want, getClusterVersion(t).Spec.DesiredUpdate); diff != "" {
		t.Errorf("desiredUpdate (-want +got):\n%s", diff)
	}
}
