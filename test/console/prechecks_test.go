package console

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// TestAcceptInTheBrowser evaluates two twin UpdatePlans on a recorded
// cluster mid-update, for two releases with the same findings. A user
// who may only read them sees Accept disabled and why; an administrator
// accepts a finding of one plan in the browser, and pre-checks --accept
// accepts the same finding of the other: both plans' spec.acceptedInsights,
// read from the API server, must be the same.
func TestAcceptInTheBrowser(t *testing.T) {
	c := startCluster(t, "4.14.1-workers-started-updating-multiple-pools", 0)
	ctx := context.Background()
	plans := c.insights.InsightsV1alpha1().UpdatePlans()
	const browserPlan, cliPlan = "4.15.0", "4.15.1"
	for _, target := range []string{browserPlan, cliPlan} {
		plan := &insightsv1alpha1.UpdatePlan{ObjectMeta: metav1.ObjectMeta{Name: target}, Spec: insightsv1alpha1.UpdatePlanSpec{TargetRelease: target}}
		if _, err := plans.Create(ctx, plan, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	c.settle(t, 3*time.Second)

	var seen pageFacts
	browse(t, browseSpec{URL: c.standin.URL, Mode: "tab", User: viewer, Screenshot: "pre-checks-not-allowed.png", Section: "pre-checks"}, &seen)
	findings := 0
	for _, p := range seen.Plans {
		for _, f := range p.Findings {
			findings++
			if f.Cells[3] == "No" && !f.AcceptDisabled {
				t.Errorf("%s may not patch UpdatePlans, but Accept of %s in %s is enabled", viewer, f.Identity, p.Name)
			}
		}
		if len(p.Findings) > 0 && (p.NotAllowed == nil || !strings.Contains(*p.NotAllowed, "patch")) {
			t.Errorf("plan %s does not say why %s may not accept: %v", p.Name, viewer, p.NotAllowed)
		}
	}
	if findings == 0 {
		t.Fatalf("no finding to accept in the plans the page shows: %+v", seen.Plans)
	}

	var after pageFacts
	r := browse(t, browseSpec{URL: c.standin.URL, Mode: "accept", Plan: browserPlan, Screenshot: "pre-checks-accepted.png", Section: "pre-checks"}, &after)
	if r.Accepted == nil {
		t.Fatal("browse.js accepted nothing")
	}
	t.Logf("accepted %s in UpdatePlan %s in the browser", r.Accepted.Identity, r.Accepted.Plan)
	// The twin plans are of releases the recorded cluster is not offered:
	// pre-checks accepts only in a plan it keeps, which --allow-not-offered
	// asks for. It exits 1 while other findings are not accepted: the
	// update is not ready.
	if out, code := c.commandExit(t, "pre-checks", "--to", cliPlan, "--allow-not-offered", "--accept", r.Accepted.Identity, "--timeout", "2m"); code > 1 {
		t.Fatalf("pre-checks --accept: exit %d\n%s", code, out)
	}

	inBrowser, err := plans.Get(ctx, browserPlan, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byCLI, err := plans.Get(ctx, cliPlan, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(inBrowser.Spec.AcceptedInsights) == 0 {
		t.Fatalf("the browser's Accept wrote no spec.acceptedInsights: %+v", inBrowser.Spec)
	}
	if diff := cmp.Diff(byCLI.Spec.AcceptedInsights, inBrowser.Spec.AcceptedInsights); diff != "" {
		t.Errorf("spec.acceptedInsights written in the browser (+) and by pre-checks --accept (-) differ:\n%s", diff)
	}
}
