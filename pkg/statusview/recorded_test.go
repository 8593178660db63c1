package statusview_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// golden holds what status renders for the recorded clusters.
const golden = "status"

// outputs are the two renderings the reference recorded, by file suffix.
var outputs = map[string]struct {
	details   statusview.Details
	reference func(recordedtest.Case) string
}{
	".output":          {details: statusview.Details{}, reference: func(c recordedtest.Case) string { return c.Output }},
	".detailed-output": {details: statusview.Details{Operators: true, Nodes: true, Health: true}, reference: func(c recordedtest.Case) string { return c.Detailed }},
}

// insightsOf returns what analyze computed as the objects status reads.
func insightsOf(t testing.TB, computed []analyze.Insight) *statusview.Insights {
	t.Helper()
	objects := make([]runtime.Object, 0, len(computed))
	for _, i := range computed {
		objects = append(objects, i.Object)
	}
	in, err := statusview.InsightsOf(objects)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
