package upgrade

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

func TestManagementFlagsAreRefusedBeforeAnyRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    options
		want string
	}{
		{
			name: "both flags",
			o:    options{to: "4.17.3", hostedCluster: "clusters/payments", nodePool: "clusters/payments-workers"},
			want: "--hosted-cluster updates a control plane and --nodepool a NodePool: take one or the other",
		},
		{
			name: "no namespace",
			o:    options{to: "4.17.3", hostedCluster: "payments"},
			want: `--hosted-cluster "payments": want NAMESPACE/NAME, the HostedCluster's`,
		},
		{
			name: "a NodePool path too deep",
			o:    options{to: "4.17.3", nodePool: "clusters/payments/workers"},
			want: `--nodepool "clusters/payments/workers": want NAMESPACE/NAME, the NodePool's`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
			var out, errOut bytes.Buffer
			err := tc.o.runManagement(t.Context(), &out, &errOut, client)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if len(client.Actions()) > 0 {
				t.Errorf("the command read before refusing its flags: %v", client.Actions())
			}
		})
	}
}
