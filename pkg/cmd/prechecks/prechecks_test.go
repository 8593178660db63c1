package prechecks

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

var (
	now     = time.Date(2026, 11, 22, 20, 0, 0, 123456789, time.UTC)
	request = "2026-11-22T20:00:00.123456789Z"
	plans   = schema.GroupVersionResource{Group: "openshift.muller.dev", Version: "v1alpha1", Resource: "updateplans"}
)

const (
	riskID     = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/OVNHang"
	durationID = "update-insights-operator/ControlPlane//duration"
	slowID     = "mco/ControlPlane//slow-etcd"
)

func insight(uid string, level insightsv1alpha1.UpdateInsightLevel, summary string, resources ...insightsv1alpha1.InsightResource) insightsv1alpha1.UpdateInsight {
	return insightsv1alpha1.UpdateInsight{
		UID:    uid,
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: resources},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: level, Summary: summary},
	}
}

// answers are the operator's duration estimate and a risk, and an
// informer's warning.
var answers = []updatestatus.Answer{
	{Informer: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{
		insight("duration", insightsv1alpha1.StatusInsightLevel, "The update to 4.17.3 should take about 1h40m"),
		insight("risk/OVNHang", insightsv1alpha1.ErrorInsightLevel, "Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang.",
			insightsv1alpha1.InsightResource{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"}),
	}},
	{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{insight("slow-etcd", insightsv1alpha1.WarningInsightLevel, "etcd is slow")}},
}

// controller plays the operator's UpdatePlan controller: a read of a plan
// returns it as evaluated, at the fake clock's time, by the operator's own
// computation of these answers, once it has been read lag times.
type controller struct {
	client *fake.Clientset
	clock  *clocktesting.FakeClock
	lag    int
	reads  int
	// answers are the informers' findings; expected the informers that
	// handle plans; pools and nodePools where the findings are placed, as
	// updateplan.Input has them.
	answers   []updatestatus.Answer
	expected  []string
	pools     []string
	nodePools map[string]string
}

func (c *controller) react(action clienttesting.Action) (bool, k8sruntime.Object, error) {
	obj, err := c.client.Tracker().Get(plans, "", action.(clienttesting.GetAction).GetName())
	if err != nil {
		return true, nil, err
	}
	plan := obj.(*insightsv1alpha1.UpdatePlan).DeepCopy()
	if c.reads++; c.reads <= c.lag {
		plan.Status.Conditions = []metav1.Condition{{Type: updateplan.ConditionAnswered, Status: metav1.ConditionFalse,
			Reason: updateplan.ReasonWaitingForInformers, Message: "Waiting for the findings of mco."}}
		plan.Status.ObservedEvaluationRequest = plan.Spec.EvaluationRequest
		return true, plan, nil
	}
	plan.Status = updateplan.Compute(updateplan.Input{
		Plan: plan, Answers: c.answers, Expected: c.expected, Pools: c.pools, NodePools: c.nodePools,
		EvaluatedAt: c.clock.Now(), Observed: plan.Spec.EvaluationRequest, Now: c.clock.Now(),
	})
	return true, plan, nil
}

// setUp returns a fake cluster with these plans, whose controller gives
// answers, waiting for mco, after lag reads.
func setUp(lag int, existing ...*insightsv1alpha1.UpdatePlan) (*fake.Clientset, *clocktesting.FakeClock) {
	return setUpController(&controller{lag: lag, answers: answers, expected: []string{"mco"}}, now, existing...)
}

// setUpController returns a fake cluster with these plans, answered by c,
// whose clock starts at start.
func setUpController(c *controller, start time.Time, existing ...*insightsv1alpha1.UpdatePlan) (*fake.Clientset, *clocktesting.FakeClock) {
	var objects []k8sruntime.Object
	for _, p := range existing {
		objects = append(objects, p)
	}
	c.client = fake.NewSimpleClientset(objects...)
	c.clock = clocktesting.NewFakeClock(start)
	c.client.PrependReactor("get", "updateplans", c.react)
	return c.client, c.clock
}

// clusterVersion runs 4.17.1 and is offered 4.17.2, and 4.17.3 with the
// risk OVNHang.
func clusterVersion() *configv1.ClusterVersion {
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

// offers is what clusterVersion offers, as the command says it.
const offers = `In channel "stable-4.17", the cluster is offered 4.17.2 (recommended), 4.17.3 (not recommended: OVNHang).`

// fakeClients are the command's clients on these fakes, in a cluster with
// clusterVersion's ClusterVersion.
func fakeClients(client *fake.Clientset, kube *kubefake.Clientset) func(*rest.Config) (clients, error) {
	return fakeClientsWith(client, kube, configfake.NewSimpleClientset(clusterVersion()))
}

func fakeClientsWith(client *fake.Clientset, kube *kubefake.Clientset, config *configfake.Clientset) func(*rest.Config) (clients, error) {
	return func(*rest.Config) (clients, error) {
		return clients{plans: client.InsightsV1alpha1().UpdatePlans(), events: kube.CoreV1().Events(metav1.NamespaceDefault),
			clusterVersions: config.ConfigV1().ClusterVersions()}, nil
	}
}

// run runs the command, moving the fake clock on whenever it waits.
func run(t *testing.T, client *fake.Clientset, clock *clocktesting.FakeClock, args ...string) (string, string, error) {
	t.Helper()
	return runWithEvents(t, client, kubefake.NewSimpleClientset(), clock, args...)
}

// runWithEvents runs the command, with these Events in the cluster.
func runWithEvents(t *testing.T, client *fake.Clientset, kube *kubefake.Clientset, clock *clocktesting.FakeClock, args ...string) (string, string, error) {
	t.Helper()
	return runWithClients(t, fakeClients(client, kube), clock, args...)
}

// runWithClients runs the command on these clients.
func runWithClients(t *testing.T, newClients func(*rest.Config) (clients, error), clock *clocktesting.FakeClock, args ...string) (string, string, error) {
	t.Helper()
	cmd := newCommand(clock, newClients)
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(append(args, "--server", "https://cluster.invalid:6443"))
	done := make(chan error)
	go func() { done <- cmd.Execute() }()
	for {
		select {
		case err := <-done:
			return out.String(), errOut.String(), err
		default:
			if clock.HasWaiters() {
				clock.Step(pollInterval)
			}
			runtime.Gosched()
		}
	}
}

func stored(t *testing.T, client *fake.Clientset, name string) insightsv1alpha1.UpdatePlanSpec {
	t.Helper()
	obj, err := client.Tracker().Get(plans, "", name)
	if err != nil {
		t.Fatal(err)
	}
	return obj.(*insightsv1alpha1.UpdatePlan).Spec
}

func existing(request string, accepted ...insightsv1alpha1.AcceptedInsight) *insightsv1alpha1.UpdatePlan {
	return &insightsv1alpha1.UpdatePlan{
		ObjectMeta: metav1.ObjectMeta{Name: "4.17.3"},
		Spec:       insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.3", EvaluationRequest: request, AcceptedInsights: accepted},
	}
}

func TestPreChecksEvaluates(t *testing.T) {
	other := insightsv1alpha1.AcceptedInsight{UpdateInformer: "mco", UID: slowID, Accepted: true}
	testCases := []struct {
		name     string
		existing []*insightsv1alpha1.UpdatePlan
		lag      int
		want     insightsv1alpha1.UpdatePlanSpec
		progress string
	}{
		{
			name: "creates the plan",
			want: insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.3", EvaluationRequest: request},
		},
		{
			name:     "refreshes the plan, keeping what it accepts",
			existing: []*insightsv1alpha1.UpdatePlan{existing("2026-11-22T19:00:00Z", other)},
			want:     insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.3", EvaluationRequest: request, AcceptedInsights: []insightsv1alpha1.AcceptedInsight{other}},
		},
		{
			name:     "waits for the informers, saying so",
			lag:      3,
			want:     insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.3", EvaluationRequest: request},
			progress: "UpdatePlan 4.17.3: waiting for the findings of mco (0s)\n",
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			client, clock := setUp(tc.lag, tc.existing...)
			out, progress, err := run(t, client, clock, "--to", "4.17.3")
			if err == nil || !strings.HasPrefix(err.Error(), "the update to 4.17.3 is not ready: not accepted: OVNHang") {
				t.Errorf("error %v, want the unaccepted findings named", err)
			}
			if diff := cmp.Diff(tc.want, stored(t, client, "4.17.3")); diff != "" {
				t.Errorf("spec (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.progress, progress); diff != "" {
				t.Errorf("progress (-want +got):\n%s", diff)
			}
			if !strings.Contains(out, "Error     OVNHang     update-insights-operator   No         Conditional update risk OVNHang") {
				t.Errorf("output has no row for the risk:\n%s", out)
			}
		})
	}
}

func TestPreChecksAccepts(t *testing.T) {
	other := insightsv1alpha1.AcceptedInsight{UpdateInformer: "gone", UID: "gone/ControlPlane//old", Accepted: true}
	risk := insightsv1alpha1.AcceptedInsight{UpdateInformer: updatestatus.BuiltinInformer, UID: riskID, Accepted: true}
	slow := insightsv1alpha1.AcceptedInsight{UpdateInformer: "mco", UID: slowID, Accepted: true}
	testCases := []struct {
		name    string
		args    []string
		want    []insightsv1alpha1.AcceptedInsight
		wantErr string
	}{
		{
			name: "merged with what the plan accepts", args: []string{"--accept", riskID},
			want:    []insightsv1alpha1.AcceptedInsight{other, risk},
			wantErr: "the update to 4.17.3 is not ready: not accepted: slow-etcd",
		},
		{
			name: "by short names", args: []string{"--accept", "OVNHang,slow-etcd"},
			want: []insightsv1alpha1.AcceptedInsight{other, risk, slow},
		},
		{
			name: "everything accepted", args: []string{"--accept", riskID, "--accept-all-of", "mco"},
			want: []insightsv1alpha1.AcceptedInsight{other, risk, slow},
		},
		{
			name: "an unknown identity writes nothing", args: []string{"--accept", riskID + "," + "mco/ControlPlane//typo"},
			want:    []insightsv1alpha1.AcceptedInsight{other},
			wantErr: "nothing accepted in UpdatePlan 4.17.3: not among the plan's findings: mco/ControlPlane//typo",
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			client, clock := setUp(0, existing(request, other))
			_, _, err := run(t, client, clock, append([]string{"--to", "4.17.3"}, tc.args...)...)
			if diff := cmp.Diff(tc.wantErr, errString(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			spec := stored(t, client, "4.17.3")
			if diff := cmp.Diff(tc.want, spec.AcceptedInsights); diff != "" {
				t.Errorf("accepted (-want +got):\n%s", diff)
			}
			if spec.EvaluationRequest != request {
				t.Errorf("accepting asked for an evaluation: %q", spec.EvaluationRequest)
			}
		})
	}
}

func TestPreChecksOutputs(t *testing.T) {
	accepted := existing(request,
		insightsv1alpha1.AcceptedInsight{UpdateInformer: updatestatus.BuiltinInformer, UID: riskID, Accepted: true})
	t.Run("quiet", func(t *testing.T) {
		client, clock := setUp(2, accepted)
		out, progress, err := run(t, client, clock, "--to", "4.17.3", "--quiet")
		if err == nil || out != slowID+"\n" || progress != "" {
			t.Errorf("got %q, progress %q, error %v; want the identity alone, and an error", out, progress, err)
		}
	})
	t.Run("json", func(t *testing.T) {
		client, clock := setUp(0, accepted)
		out, _, _ := run(t, client, clock, "--to", "4.17.3", "-o", "json")
		var v struct {
			Findings []struct {
				Identity string
				Accepted bool
			}
			Conditions []metav1.Condition
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range v.Findings {
			got = append(got, f.Identity+" "+map[bool]string{true: "accepted", false: "not accepted"}[f.Accepted])
		}
		want := []string{riskID + " accepted", slowID + " not accepted", durationID + " not accepted"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("findings (-want +got):\n%s", diff)
		}
		if !slices.ContainsFunc(v.Conditions, func(c metav1.Condition) bool { return c.Type == updateplan.ConditionAccepted }) {
			t.Errorf("no Accepted condition in %s", out)
		}
	})
}

func TestPreChecksErrors(t *testing.T) {
	testCases := []struct {
		name string
		args []string
		want string
	}{
		{name: "no target", args: nil, want: "--to is required: the release to check an update to"},
		{name: "quiet and details", args: []string{"--to", "4.17.3", "--quiet", "--details"}, want: "--quiet prints identities only: it takes neither --details nor -o"},
		{name: "unknown output", args: []string{"--to", "4.17.3", "-o", "wide"}, want: `-o "wide": want json or yaml`},
		{name: "accepting without a plan", args: []string{"--to", "4.17.3", "--accept", riskID},
			want: "there is no UpdatePlan 4.17.3: run pre-checks --to 4.17.3 first, to see its findings"},
		{name: "no answer in time", args: []string{"--to", "4.17.3", "--timeout", "50ms"},
			want: "gave up on UpdatePlan 4.17.3 after 50ms (--timeout) waiting for the findings of mco"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			client, clock := setUp(1 << 30)
			cmd := newCommand(clock, fakeClients(client, kubefake.NewSimpleClientset()))
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			cmd.SetArgs(append(tc.args, "--server", "https://cluster.invalid:6443"))
			if diff := cmp.Diff(tc.want, errString(cmd.Execute())); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A plan deleted while the command waits for it is explained: by the
// operator's Event when it pruned that plan, else as deleted by someone else.
func TestAPlanDeletedWhileWaiting(t *testing.T) {
	pruned := func(uid types.UID, message string) *corev1.Event {
		return &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Namespace: metav1.NamespaceDefault, Name: "4.17.3." + string(uid)},
			InvolvedObject: corev1.ObjectReference{Kind: "UpdatePlan", Name: "4.17.3", UID: uid},
			Reason:         updateplan.ReasonPruned, Message: message,
		}
	}
	tests := []struct {
		name   string
		events []k8sruntime.Object
		want   string
	}{
		{
			name:   "pruned by the operator",
			events: []k8sruntime.Object{pruned("uid-1", "Deleted, as no one touched it since 2026-10-23T10:00:00Z, over 720h0m0s ago")},
			want:   "UpdatePlan 4.17.3 was deleted by the operator while waiting for it: Deleted, as no one touched it since 2026-10-23T10:00:00Z, over 720h0m0s ago",
		},
		{
			name:   "an earlier plan of that name was pruned",
			events: []k8sruntime.Object{pruned("uid-0", "Deleted, as the cluster completed its update to 4.17.3")},
			want:   "UpdatePlan 4.17.3 was deleted while waiting for it, not by the operator (no UpdatePlanPruned Event): run pre-checks again",
		},
		{
			name: "deleted by someone",
			want: "UpdatePlan 4.17.3 was deleted while waiting for it, not by the operator (no UpdatePlanPruned Event): run pre-checks again",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := existing("r0")
			plan.UID = "uid-1"
			client, clock := setUp(1<<30, plan)
			// The plan is deleted once the command has read it to refresh it
			// and then while it waits.
			reads := 0
			client.PrependReactor("get", "updateplans", func(clienttesting.Action) (bool, k8sruntime.Object, error) {
				if reads++; reads > 2 {
					if err := client.Tracker().Delete(plans, "", "4.17.3"); err != nil && !apierrors.IsNotFound(err) {
						t.Error(err)
					}
				}
				return false, nil, nil
			})
			_, _, err := runWithEvents(t, client, kubefake.NewSimpleClientset(tt.events...), clock, "--to", "4.17.3")
			if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// The target is checked against the ClusterVersion before any plan is
// created: a version, not the release the cluster runs, offered or asked
// for anyway.
func TestPreChecksTargets(t *testing.T) {
	unreadable := configfake.NewSimpleClientset()
	unreadable.PrependReactor("get", "clusterversions", func(clienttesting.Action) (bool, k8sruntime.Object, error) {
		return true, nil, apierrors.NewForbidden(configv1.Resource("clusterversions"), "version", errors.New("no"))
	})
	testCases := []struct {
		name     string
		existing []*insightsv1alpha1.UpdatePlan
		config   *configfake.Clientset
		args     []string
		// created is the plan that exists afterwards, if any.
		created   string
		wantFirst string
		wantErr   string
		wantOut   string
		errOut    string
	}{
		{
			name: "not a version", args: []string{"--to", "garbage"},
			wantErr: `--to "garbage" is not a release version such as 4.17.3 or 4.18.0-ec.2 (No Major.Minor.Patch elements found). ` + offers,
		},
		{
			name: "not a version, the offers unreadable", args: []string{"--to", "4.17"}, config: unreadable,
			wantErr: `--to "4.17" is not a release version such as 4.17.3 or 4.18.0-ec.2 (No Major.Minor.Patch elements found). ` +
				`The releases offered cannot be listed: reading ClusterVersion version: clusterversions.config.openshift.io "version" is forbidden: no`,
		},
		{
			name: "the release the cluster runs", args: []string{"--to", "4.17.1"},
			wantOut: "info: Cluster is already at version 4.17.1\n",
		},
		{
			name: "the release the cluster runs, for a script", args: []string{"--to", "4.17.1", "-o", "json"},
			errOut: "info: Cluster is already at version 4.17.1\n",
		},
		{
			name: "offers unreadable: the plan says", args: []string{"--to", "4.17.5"}, config: unreadable,
			created: "4.17.5", wantFirst: "Update to:  4.17.5\n",
			errOut: `warning: whether the cluster is offered 4.17.5 is not checked before the plan: reading ClusterVersion version: clusterversions.config.openshift.io "version" is forbidden: no` + "\n",
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			client, clock := setUp(0, tc.existing...)
			config := tc.config
			if config == nil {
				config = configfake.NewSimpleClientset(clusterVersion())
			}
			cmd := newCommand(clock, fakeClientsWith(client, kubefake.NewSimpleClientset(), config))
			var out, errOut bytes.Buffer
			cmd.SetOut(&out)
			cmd.SetErr(&errOut)
			cmd.SetArgs(append(tc.args, "--server", "https://cluster.invalid:6443"))
			err := cmd.Execute()
			if tc.created == "" {
				if diff := cmp.Diff(tc.wantErr, errString(err)); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tc.wantOut, out.String()); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			} else if first, _, _ := strings.Cut(out.String(), "\n"); first+"\n" != tc.wantFirst {
				t.Errorf("stdout begins %q, want %q:\n%s", first, tc.wantFirst, out.String())
			}
			if diff := cmp.Diff(tc.errOut, errOut.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			list, err := client.Tracker().List(plans, plans.GroupVersion().WithKind("UpdatePlan"), "")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range list.(*insightsv1alpha1.UpdatePlanList).Items {
				got = append(got, p.Name)
			}
			var want []string
			if tc.created != "" {
				want = []string{tc.created}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("plans (-want +got):\n%s", diff)
			}
		})
	}
}
