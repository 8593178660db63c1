package precheck

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// cloudCredential is the CloudCredential cluster in mode, annotated with
// upgradeable-to unless it is "-".
func cloudCredential(mode operatorv1.CloudCredentialsMode, upgradeableTo string) *operatorv1.CloudCredential {
	c := &operatorv1.CloudCredential{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}, Spec: operatorv1.CloudCredentialSpec{CredentialsMode: mode}}
	if upgradeableTo != "-" {
		c.Annotations = map[string]string{upgradeableToAnnotation: upgradeableTo}
	}
	return c
}

func TestManualCloudCredentials(t *testing.T) {
	// The cluster runs 4.16.3.
	manual := operatorv1.CloudCredentialsModeManual
	tests := []struct {
		name       string
		target     string
		credential *operatorv1.CloudCredential
		unreadable error
		want       []seen
	}{
		{
			name: "Manual, no annotation", target: "4.17.2", credential: cloudCredential(manual, "-"),
			want: []seen{{uidManualCredentials, "error", "Cloud credentials are maintained manually, and CloudCredential cluster does not say they are ready for 4.17: it has no cloudcredential.openshift.io/upgradeable-to annotation"}},
		},
		{
			name: "Manual, annotated for the cluster's version", target: "4.17.2", credential: cloudCredential(manual, "4.16"),
			want: []seen{{uidManualCredentials, "error", "Cloud credentials are maintained manually, and CloudCredential cluster says they are ready for 4.16, not 4.17 (annotation cloudcredential.openshift.io/upgradeable-to)"}},
		},
		{
			name: "Manual, annotated with what is not a version", target: "4.17.2", credential: cloudCredential(manual, "yes"),
			want: []seen{{uidManualCredentials, "error", `Cloud credentials are maintained manually, and CloudCredential cluster does not say they are ready for 4.17: its cloudcredential.openshift.io/upgradeable-to annotation, "yes", is not a version`}},
		},
		{
			// The cloud-credential operator lets the update start: the
			// annotation is above the cluster's 4.16.
			name: "Manual, annotated for a version between the cluster's and the target's", target: "4.18.0", credential: cloudCredential(manual, "4.17"),
			want: []seen{{uidManualCredentials, "warning", "Cloud credentials are maintained manually, and CloudCredential cluster says they are ready for 4.17, not 4.18 (annotation cloudcredential.openshift.io/upgradeable-to)"}},
		},
		{
			name: "Manual, annotated for the target's minor version", target: "4.17.2", credential: cloudCredential(manual, "4.17"),
		},
		{
			name: "Manual, annotated with the target's version, v and patch included", target: "4.17.2", credential: cloudCredential(manual, "v4.17.0"),
		},
		{
			name: "Manual, annotated for a later version", target: "4.17.2", credential: cloudCredential(manual, "4.18"),
		},
		{
			name: "Manual, a patch update", target: "4.16.5", credential: cloudCredential(manual, "-"),
		},
		{
			name: "Mint", target: "4.17.2", credential: cloudCredential(operatorv1.CloudCredentialsModeMint, "-"),
		},
		{
			name: "the default mode", target: "4.17.2", credential: cloudCredential(operatorv1.CloudCredentialsModeDefault, "-"),
		},
		{
			name: "no CloudCredential", target: "4.17.2",
			want: []seen{{uidManualCredentialsUnchecked, "warning", "Whether manually maintained cloud credentials are ready for 4.17 could not be checked"}},
		},
		{
			name: "CloudCredentials not served", target: "4.17.2", unreadable: errors.New("the cluster does not serve cloudcredentials.operator.openshift.io/v1"),
			want: []seen{{uidManualCredentialsUnchecked, "warning", "Whether manually maintained cloud credentials are ready for 4.17 could not be checked"}},
		},
		{
			name: "not served, and a patch update", target: "4.16.5", unreadable: errors.New("the cluster does not serve cloudcredentials.operator.openshift.io/v1"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &Input{ClusterVersion: clusterVersion(), Target: tt.target, CloudCredential: tt.credential, CloudCredentialUnreadable: tt.unreadable, Now: now}
			if diff := cmp.Diff(tt.want, seenOf(manualCloudCredentials(in))); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestManualCloudCredentialsDescription(t *testing.T) {
	in := &Input{ClusterVersion: clusterVersion(), Target: "4.17.2", CloudCredential: cloudCredential(operatorv1.CloudCredentialsModeManual, "-"), Now: now}
	got := manualCloudCredentials(in)
	if len(got) != 1 {
		t.Fatalf("findings %v, want one", seenOf(got))
	}
	for _, want := range []string{
		"oc adm release extract --credentials-requests --cloud=<aws|azure|gcp|...> --to=credentials-requests <the release image of 4.17.2>\n",
		"oc annotate cloudcredential cluster --overwrite cloudcredential.openshift.io/upgradeable-to=4.17\n",
		"Until the annotation is above 4.16, the cluster's version, the cloud-credential operator reports Upgradeable=False (MissingUpgradeableAnnotation), which blocks minor updates.",
	} {
		if !strings.Contains(got[0].Impact.Description, want) {
			t.Errorf("description lacks %q:\n%s", want, got[0].Impact.Description)
		}
	}
	if got[0].Remediation.Reference != manualCredentialsDoc {
		t.Errorf("reference %q, want %q", got[0].Remediation.Reference, manualCredentialsDoc)
	}
}
