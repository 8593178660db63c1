package controlplane

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

// FuzzAssess assesses an arbitrary ClusterVersion and ClusterOperators (as
// JSON, as any controller may write them): the ClusterVersion's insight,
// each operator's and each health insight are ones the API server's schemas
// accept, health insights have names the API accepts, and the assessment is
// the same when made again, and when made again from what it wrote.
func FuzzAssess(f *testing.F) {
	examples := filepath.Join("..", "..", "..", "test", "testdata", "oc-examples")
	for _, c := range []string{"4.15.0-ec2-early", "4.14.1-degraded", "4.16.0-compact", "not-upgrading"} {
		cv, err := os.ReadFile(filepath.Join(examples, c+"-cv.yaml"))
		if err != nil {
			f.Fatal(err)
		}
		cos, err := os.ReadFile(filepath.Join(examples, c+"-co.yaml"))
		if err != nil {
			f.Fatal(err)
		}
		cvs, err := recorded.Parse(cv)
		if err != nil || len(cvs) != 1 {
			f.Fatalf("%s: %d objects, %v", c, len(cvs), err)
		}
		objects, err := recorded.Parse(cos)
		if err != nil {
			f.Fatal(err)
		}
		var operators []*configv1.ClusterOperator
		// A few operators keep the inputs small, and the fuzzing fast.
		for _, o := range objects[:min(4, len(objects))] {
			operators = append(operators, o.(*configv1.ClusterOperator))
		}
		version := cvs[0].(*configv1.ClusterVersion)
		f.Add(apivalidation.JSON(f, version), apivalidation.JSON(f, operators), version.Status.History[0].StartedTime.Unix()+1200)
	}

	cvSchema := apivalidation.Status("ClusterVersionProgressInsight")
	coSchema := apivalidation.Status("ClusterOperatorProgressInsight")
	healthSchema := apivalidation.Status("UpdateHealthInsight")
	f.Fuzz(func(t *testing.T, cvJSON, operatorsJSON []byte, nowUnix int64) {
		var cv configv1.ClusterVersion
		var items []configv1.ClusterOperator
		if json.Unmarshal(cvJSON, &cv) != nil || json.Unmarshal(operatorsJSON, &items) != nil {
			return
		}
		// The operator reads the ClusterVersion named version, and
		// objects have names the API server accepts.
		cv.Name = "version"
		operators := make([]*configv1.ClusterOperator, len(items))
		for i := range items {
			if len(validation.IsDNS1123Subdomain(items[i].Name)) > 0 {
				return
			}
			operators[i] = &items[i]
		}
		now := time.Unix(nowUnix, 0).UTC()
		if now.Year() < 1970 || now.Year() > 9000 {
			// The operator's clock.
			return
		}
		status, insights, _ := Assess(&cv, operators, hosted.Standalone, "", nil, nil, now)
		if errs := cvSchema.Validate(status); len(errs) > 0 {
			t.Errorf("the API would refuse the ClusterVersion's insight: %v", errs.ToAggregate())
		}
		for _, h := range insights {
			// A start the cluster does not record is when the health
			// insights controller first writes the insight.
			if h.Status.StartedAt.IsZero() {
				h.Status.StartedAt = metav1.NewTime(now)
			}
			if errs := healthSchema.Validate(h.Status); len(errs) > 0 {
				t.Errorf("the API would refuse health insight %s: %v", h.Name, errs.ToAggregate())
			}
			if problems := validation.IsDNS1123Subdomain(h.Name); len(problems) > 0 {
				t.Errorf("health insight name %q: %v", h.Name, problems)
			}
		}
		for _, co := range operators {
			s := ClusterOperatorProgress(co, cv.Status.Desired.Version, "", nil, now)
			if errs := coSchema.Validate(s); len(errs) > 0 {
				t.Errorf("the API would refuse the insight of operator %q: %v", co.Name, errs.ToAggregate())
			}
		}

		again, insightsAgain, _ := Assess(&cv, operators, hosted.Standalone, "", nil, nil, now)
		if diff := cmp.Diff(status, again); diff != "" {
			t.Errorf("assessed again (-first +second):\n%s", diff)
		}
		if diff := cmp.Diff(insights, insightsAgain); diff != "" {
			t.Errorf("health assessed again (-first +second):\n%s", diff)
		}
		written, _, _ := Assess(&cv, operators, hosted.Standalone, "", nil, &status, now)
		if diff := cmp.Diff(status, written); diff != "" {
			t.Errorf("assessed again from what was written (-first +second):\n%s", diff)
		}
	})
}
