package precheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOCName(t *testing.T) {
	testCases := []struct {
		uid, want string
	}{
		{uid: uidFailing, want: "Failing"},
		{uid: uidInProgress, want: "Progressing"},
		{uid: uidStaleOffer, want: "CannotRetrieveUpdates"},
		{uid: riskUIDPrefix + "DemoEtcdSlowDisk", want: "DemoEtcdSlowDisk"},
		{uid: "alert/PodDisruptionBudgetAtLimit/1a2b3c4d", want: "PodDisruptionBudgetAtLimit"},
		{uid: "alert/PodDisruptionBudgetAtLimit/1a2b3c4d-2", want: "PodDisruptionBudgetAtLimit"},
		{uid: uidAlertsUnchecked},
		{uid: "node/worker-1/not-ready"},
	}
	for _, tc := range testCases {
		t.Run(tc.uid, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, OCName(tc.uid)); diff != "" {
				t.Errorf("OCName(%q) (-want +got):\n%s", tc.uid, diff)
			}
		})
	}
}
