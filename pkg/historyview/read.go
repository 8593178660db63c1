package historyview

import (
	"fmt"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

// ReadRecords reads the UpdateRecords in path, a file or folder such as
// `oc get urec -o yaml` or a must-gather writes.
func ReadRecords(path string) ([]insightsv1alpha1.UpdateRecord, error) {
	objects, err := recorded.Read(path)
	if err != nil {
		return nil, output.OneLine(err)
	}
	var records []insightsv1alpha1.UpdateRecord
	for _, o := range objects {
		r, ok := o.(*insightsv1alpha1.UpdateRecord)
		if !ok {
			return nil, fmt.Errorf("%s: holds a %s, which is not an UpdateRecord", path, recorded.KindOf(o))
		}
		records = append(records, *r)
	}
	return records, nil
}
