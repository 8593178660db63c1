package upgrade

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

var (
	now            = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	clusterVersion = schema.GroupVersionResource{Group: "config.openshift.io", Version: "v1", Resource: "clusterversions"}
)

const riskID = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/OVNHang"

// cv runs 4.17.1 and is offered 4.17.2, and 4.17.3 with the risk OVNHang.
func cv() *configv1.ClusterVersion {
	return &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Spec:       configv1.ClusterVersionSpec{ClusterID: "c", Channel: "stable-4.17"},
		Status: configv1.ClusterVersionStatus{
			Desired:          configv1.Release{Version: "4.17.1", Image: "example.com/release@sha256:1"},
			History:          []configv1.UpdateHistory{{State: configv1.CompletedUpdate, Version: "4.17.1", Image: "example.com/release@sha256:1"}},
			AvailableUpdates: []configv1.Release{{Version: "4.17.2", Image: "example.com/release@sha256:2"}},
			ConditionalUpdates: []configv1.ConditionalUpdate{{
				Release:    configv1.Release{Version: "4.17.3", Image: "example.com/release@sha256:3"},
				Risks:      []configv1.ConditionalUpdateRisk{{Name: "OVNHang", URL: "https://example.com/ovn", Message: "OVN may hang."}},
				Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionFalse, Reason: "OVNHang", Message: "OVN may hang."}},
			}},
		},
	}
}

// plan is the plan for 4.17.3 as the operator evaluates it, evaluatedAt
// ago, with the risk accepted or not.
func plan(accepted bool, evaluatedAt time.Duration) *insightsv1alpha1.UpdatePlan {
	p := &insightsv1alpha1.UpdatePlan{
		ObjectMeta: metav1.ObjectMeta{Name: "4.17.3"},
		Spec: insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.3", EvaluationRequest: "r1",
			AcceptedInsights: []insightsv1alpha1.AcceptedInsight{{UpdateInformer: updatestatus.BuiltinInformer, UID: riskID, Accepted: accepted}}},
	}
	risk := insightsv1alpha1.UpdateInsight{
		UID: "risk/OVNHang",
		Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane,
			Resources: []insightsv1alpha1.InsightResource{{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"}}},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.ErrorInsightLevel, Summary: "Conditional update risk OVNHang applies"},
	}
	p.Status = updateplan.Compute(updateplan.Input{
		Plan: p, Answers: []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{risk}}},
		EvaluatedAt: now.Add(-evaluatedAt), Observed: "r1", Now: now.Add(-evaluatedAt),
	})
	return p
}

type cluster struct {
	config   *configfake.Clientset
	insights *fake.Clientset
}

// setUp returns a cluster with the ClusterVersion and plans. Without
// acceptRisks, its API server refuses the field under strict validation,
// as one without the ClusterUpdateAcceptRisks feature does. The fake does
// not implement dry runs: the reactor does as the API server, which stores
// nothing.
func setUp(acceptRisks bool, plans ...*insightsv1alpha1.UpdatePlan) cluster {
	var objects []k8sruntime.Object
	for _, p := range plans {
		objects = append(objects, p)
	}
	c := cluster{config: configfake.NewSimpleClientset(cv()), insights: fake.NewSimpleClientset(objects...)}
	c.config.PrependReactor("patch", "clusterversions", func(action clienttesting.Action) (bool, k8sruntime.Object, error) {
		patch := action.(clienttesting.PatchActionImpl)
		if !acceptRisks && strings.Contains(string(patch.GetPatch()), `"acceptRisks"`) {
			// As a kube-apiserver answers a merge patch with an unknown field.
			return true, nil, apierrors.NewInvalid(schema.GroupKind{}, "", field.ErrorList{
				field.Invalid(field.NewPath("patch"), string(patch.GetPatch()), "strict decoding error: "+unknownAcceptRisks)})
		}
		if len(patch.PatchOptions.DryRun) > 0 {
			obj, err := c.config.Tracker().Get(clusterVersion, "", patch.GetName())
			return true, obj, err
		}
		return false, nil, nil
	})
	return c
}

func (c cluster) run(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	cmd := newCommand(clocktesting.NewFakePassiveClock(now), func(*rest.Config) (Clients, error) {
		return Clients{Insights: c.insights, Config: c.config}, nil
	})
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(append(args, "--server", "https://cluster.invalid:6443"))
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

func (c cluster) desiredUpdate(t *testing.T) *configv1.Update {
	t.Helper()
	obj, err := c.config.Tracker().Get(clusterVersion, "", "version")
	if err != nil {
		t.Fatal(err)
	}
	return obj.(*configv1.ClusterVersion).Spec.DesiredUpdate
}

// offers is what cv offers, as the commands say it.
const offers = `In channel "stable-4.17", the cluster is offered 4.17.2 (recommended), 4.17.3 (not recommended: OVNHang).`

func TestUpgrade(t *testing.T) {
	update := func(version string, risks ...string) *configv1.Update {
		u := &configv1.Update{Version: version, Image: "example.com/release@sha256:" + version[len(version)-1:]}
		for _, r := range risks {
			u.AcceptRisks = append(u.AcceptRisks, configv1.AcceptRisk{Name: r})
		}
		return u
	}
	testCases := []struct {
		name        string
		acceptRisks bool
		unreadable  bool
		plans       []*insightsv1alpha1.UpdatePlan
		args        []string
		want        *configv1.Update
		wantOut     string
		wantErrOut  string
		wantErr     string
	}{
		{
			name: "refused without a plan", args: []string{"--to", "4.17.3"},
			wantErr: "refusing to update to 4.17.3: it has no UpdatePlan; run pre-checks --to 4.17.3 first",
		},
		{
			name: "refused, naming what is not accepted", plans: []*insightsv1alpha1.UpdatePlan{plan(false, time.Minute)}, args: []string{"--to", "4.17.3"},
			wantErr: "refusing to update to 4.17.3: not accepted: OVNHang",
		},
		{
			name: "refused on an old plan", plans: []*insightsv1alpha1.UpdatePlan{plan(true, 20*time.Minute)}, args: []string{"--to", "4.17.3"},
			wantErr: "refusing to update to 4.17.3: the plan was evaluated 20m0s ago, more than 15m0s: is the operator running?",
		},
		{
			name: "allowed, with the accepted risk", acceptRisks: true, plans: []*insightsv1alpha1.UpdatePlan{plan(true, time.Minute)}, args: []string{"--to", "4.17.3"},
			want:       update("4.17.3", "OVNHang"),
			wantOut:    "Requested update to 4.17.3\nAccepted risks in spec.desiredUpdate.acceptRisks: OVNHang\n",
			wantErrOut: "warning: the update to 4.17.3 is not recommended, and its risks are accepted (Recommended=False OVNHang: OVN may hang.)\n",
		},
		{
			name: "allowed, on a cluster without acceptRisks", plans: []*insightsv1alpha1.UpdatePlan{plan(true, time.Minute)}, args: []string{"--to", "4.17.3"},
			want:    update("4.17.3"),
			wantOut: "Requested update to 4.17.3\n",
			wantErrOut: "warning: the update to 4.17.3 is not recommended, and its risks are accepted (Recommended=False OVNHang: OVN may hang.)\n" +
				"warning: this cluster's ClusterVersion has no spec.desiredUpdate.acceptRisks, so the risks accepted in the UpdatePlan (OVNHang) are not recorded there\n",
		},
		{
			name: "a dry run writes nothing", acceptRisks: true, plans: []*insightsv1alpha1.UpdatePlan{plan(true, time.Minute)}, args: []string{"--to", "4.17.3", "--dry-run"},
			wantOut: `desiredUpdate:
  acceptRisks:
  - name: OVNHang
  architecture: ""
  force: false
  image: example.com/release@sha256:3
  version: 4.17.3
`,
			wantErrOut: "warning: the update to 4.17.3 is not recommended, and its risks are accepted (Recommended=False OVNHang: OVN may hang.)\n",
		},
		{
			name: "without pre-checks, loudly", args: []string{"--to", "4.17.2", "--pre-checks=false"},
			want:       update("4.17.2"),
			wantOut:    "Requested update to 4.17.2\n",
			wantErrOut: "warning: --pre-checks=false: updating to 4.17.2 without the pre-checks of its UpdatePlan; nothing the operator or an informer found was checked or accepted.\n",
		},
		{
			name: "without pre-checks, a conditional update is not recommended", args: []string{"--to", "4.17.3", "--pre-checks=false"},
			wantErrOut: "warning: --pre-checks=false: updating to 4.17.3 without the pre-checks of its UpdatePlan; nothing the operator or an informer found was checked or accepted.\n",
			wantErr:    "the update to 4.17.3 is not recommended (Recommended=False OVNHang: OVN may hang.); accept its risks in the UpdatePlan, or use --allow-not-recommended",
		},
		{
			name: "not offered, refused before the plan is read", args: []string{"--to", "4.18.0"},
			wantErr: `refusing to update to 4.18.0: it is not an update offered to this cluster. ` + offers,
		},
		{
			name: "not offered, without pre-checks", args: []string{"--to", "4.18.0", "--pre-checks=false"},
			wantErr: `refusing to update to 4.18.0: it is not an update offered to this cluster. ` + offers,
		},
		{
			name: "not a version", args: []string{"--to", "garbage"},
			wantErr: `--to "garbage" is not a release version such as 4.17.3 or 4.18.0-ec.2 (No Major.Minor.Patch elements found). ` + offers,
		},
		{
			name: "not a version, and the ClusterVersion cannot be read", args: []string{"--to", "4.17"}, unreadable: true,
			wantErr: `--to "4.17" is not a release version such as 4.17.3 or 4.18.0-ec.2 (No Major.Minor.Patch elements found). ` +
				`The releases offered cannot be listed: reading ClusterVersion version: clusterversions.config.openshift.io "version" is forbidden: no`,
		},
		{
			name: "already there", args: []string{"--to", "4.17.1"},
			wantOut: "info: Cluster is already at version 4.17.1\n",
		},
		{
			name: "no target", wantErr: "--to is required: the release to update to",
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			c := setUp(tc.acceptRisks, tc.plans...)
			if tc.unreadable {
				c.config.PrependReactor("get", "clusterversions", func(clienttesting.Action) (bool, k8sruntime.Object, error) {
					return true, nil, apierrors.NewForbidden(configv1.Resource("clusterversions"), "version", errors.New("no"))
				})
			}
			out, errOut, err := c.run(t, tc.args...)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.wantErr, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantOut, out); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantErrOut, errOut); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, c.desiredUpdate(t)); diff != "" {
				t.Errorf("desiredUpdate (-want +got):\n%s", diff)
			}
		})
	}
}
