package health

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
)

// FuzzAlertInsights feeds arbitrary alerts answers through the rules: an
// answer is decoded or refused, and every insight it gives is one the insight
// API accepts (the UpdateHealthInsight schema, checked as the API server
// does, and the bounds below), with a name the API accepts, whatever labels
// and annotations the alerts carry, and the names of one answer's insights
// are distinct (rules may give the same labels). The seeds
// run with every `go test`; `go test -fuzz FuzzAlertInsights ./pkg/health`
// explores.
func FuzzAlertInsights(f *testing.F) {
	f.Add([]byte(`{"status":"success","data":{"alerts":[{"labels":{"alertname":"KubePodNotReady","namespace":"openshift-kube-apiserver","severity":"warning"},` +
		`"annotations":{"summary":"Pod not ready.","description":"d","message":"m","runbook_url":"https://example.com/r.md"},"state":"firing","activeAt":"2024-08-02T10:00:00.5Z"}]}}`))
	f.Add([]byte(`{"status":"success","data":{"alerts":[{"labels":{"alertname":"PodDisruptionBudgetAtLimit","severity":"critical","namespace":"` +
		strings.Repeat("n", 70) + `"},"annotations":{"summary":"a\nb","runbook_url":"https://x y"},"state":"firing"}]}}`))
	twin := `{"labels":{"alertname":"PodDisruptionBudgetAtLimit","namespace":"openshift-monitoring","severity":"warning"},"annotations":{"summary":"%s"},"state":"firing","activeAt":"2023-11-23T15:39:33.014999722Z"}`
	f.Add([]byte(`{"status":"success","data":{"alerts":[` + fmt.Sprintf(twin, "one") + `,` + fmt.Sprintf(twin, "two") + `,` + fmt.Sprintf(twin, "two") + `]}}`))
	f.Add([]byte(`{"status":"error","errorType":"bad_data","error":"nope"}`))

	schema := apivalidation.Status("UpdateHealthInsight")
	f.Fuzz(func(t *testing.T, answer []byte) {
		firing, err := alerts.Decode(bytes.NewReader(answer))
		if err != nil {
			return
		}
		names := map[string]bool{}
		for _, i := range ForAlerts(firing, time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)) {
			if names[i.Name] {
				t.Errorf("two insights named %s: one would overwrite the other", i.Name)
			}
			names[i.Name] = true
			s := i.Status
			// A start the alert does not say is when the health insights
			// controller first writes the insight.
			withStart := s
			if withStart.StartedAt.IsZero() {
				withStart.StartedAt = metav1.Now()
			}
			if errs := schema.Validate(withStart); len(errs) > 0 {
				t.Errorf("the API would refuse insight %s: %v", i.Name, errs.ToAggregate())
			}
			if problems := validation.IsDNS1123Subdomain(i.Name); len(problems) > 0 {
				t.Errorf("insight name %q: %v", i.Name, problems)
			}
			if n := len(s.Impact.Summary); n == 0 || n > maxSummaryLength || strings.Contains(s.Impact.Summary, "\n") || !utf8.ValidString(s.Impact.Summary) {
				t.Errorf("summary %q is not one line of 1 to %d bytes of UTF-8", s.Impact.Summary, maxSummaryLength)
			}
			if len(s.Impact.Description) > maxDescriptionLength {
				t.Errorf("description of %d bytes", len(s.Impact.Description))
			}
			if r := s.Remediation.Reference; r != "" && (len(r) > maxReferenceLength || !referencePattern.MatchString(r)) {
				t.Errorf("reference %q is not one the API accepts", r)
			}
			for _, r := range s.Scope.Resources {
				if r.Name == "" || len(r.Name) > maxResourceNameLength || len(r.Namespace) > maxNamespaceLength {
					t.Errorf("resource %q in %q is not one the API accepts", r.Name, r.Namespace)
				}
			}
			if s.StartedAt.Time.Nanosecond() != 0 {
				t.Errorf("startedAt %s is finer than the API keeps", s.StartedAt)
			}
		}
	})
}
