package upgrade

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// infrastructure is the cluster's Infrastructure with the topology the
// hosted-cluster-config-operator or the installer gives it.
func infrastructure(topology configv1.TopologyMode) *configv1.Infrastructure {
	i := &configv1.Infrastructure{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}}
	i.Status.ControlPlaneTopology = topology
	return i
}

// hostedHow is what upgrade prints on a hosted cluster, for image and
// version.
func hostedHow(image, version string) string {
	return `This cluster's control plane is hosted (Infrastructure cluster: controlPlaneTopology External). The
hosted-cluster-config-operator resets the ClusterVersion's spec.desiredUpdate, so an update requested here
would be erased: the control plane is updated from the management cluster, through its HostedCluster's
spec.release.image:

  oc patch hostedcluster/<hosted cluster name> -n <hosted cluster namespace> --type=merge -p '{"spec":{"release":{"image":"` + image + `"}}}'

On ROSA with hosted control planes, through OpenShift Cluster Manager:

  rosa upgrade cluster -c <cluster name> --control-plane --version ` + version + `

The NodePools are updated separately, each through its own spec.release.image, after the control plane.
`
}

func TestUpgradeByTopology(t *testing.T) {
	hostedRefusal := func(version string) string {
		return "refusing to update to " + version + ": the control plane is hosted, and is updated from the management cluster as above"
	}
	testCases := []struct {
		name       string
		topology   configv1.TopologyMode
		unreadable bool
		plans      []*insightsv1alpha1.UpdatePlan
		args       []string
		want       *configv1.Update
		wantOut    string
		wantErr    string
	}{
		{
			name: "hosted, a conditional update with its plan accepted", topology: configv1.ExternalTopologyMode,
			plans: []*insightsv1alpha1.UpdatePlan{plan(true, time.Minute)}, args: []string{"--to", "4.17.3"},
			wantOut: hostedHow("example.com/release@sha256:3", "4.17.3"), wantErr: hostedRefusal("4.17.3"),
		},
		{
			name: "hosted, without pre-checks", topology: configv1.ExternalTopologyMode, args: []string{"--to", "4.17.2", "--pre-checks=false"},
			wantOut: hostedHow("example.com/release@sha256:2", "4.17.2"), wantErr: hostedRefusal("4.17.2"),
		},
		{
			name: "hosted, a dry run", topology: configv1.ExternalTopologyMode, args: []string{"--to", "4.17.2", "--dry-run"},
			wantOut: hostedHow("example.com/release@sha256:2", "4.17.2"), wantErr: hostedRefusal("4.17.2"),
		},
		{
			name: "hosted, not offered: no pull spec to give", topology: configv1.ExternalTopologyMode, args: []string{"--to", "4.18.0"},
			wantOut: "4.18.0 is not an update offered to this cluster. " + offers + "\n" +
				hostedHow("<pull spec of the 4.18.0 release image>", "4.18.0"),
			wantErr: hostedRefusal("4.18.0"),
		},
		{
			name: "hosted, already there", topology: configv1.ExternalTopologyMode, args: []string{"--to", "4.17.1"},
			wantOut: "info: Cluster is already at version 4.17.1\n",
		},
		{
			name: "highly available, as before", topology: configv1.HighlyAvailableTopologyMode, args: []string{"--to", "4.17.2", "--pre-checks=false"},
			want: &configv1.Update{Version: "4.17.2", Image: "example.com/release@sha256:2"}, wantOut: "Requested update to 4.17.2\n",
		},
		{
			name: "single replica, as before", topology: configv1.SingleReplicaTopologyMode, args: []string{"--to", "4.17.2", "--pre-checks=false"},
			want: &configv1.Update{Version: "4.17.2", Image: "example.com/release@sha256:2"}, wantOut: "Requested update to 4.17.2\n",
		},
		{
			name: "the Infrastructure cannot be read", unreadable: true, args: []string{"--to", "4.17.2", "--pre-checks=false"},
			wantErr: `reading Infrastructure cluster, which says whether the control plane is hosted: infrastructures.config.openshift.io "cluster" is forbidden: no`,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			c := setUp(false, tc.plans...)
			if tc.topology != "" {
				if err := c.config.Tracker().Add(infrastructure(tc.topology)); err != nil {
					t.Fatal(err)
				}
			}
			if tc.unreadable {
				c.config.PrependReactor("get", "infrastructures", func(clienttesting.Action) (bool, k8sruntime.Object, error) {
					return true, nil, apierrors.NewForbidden(configv1.Resource("infrastructures"), "cluster", errors.New("no"))
				})
			}
			out, _, err := c.run(t, tc.args...)
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
			if diff := cmp.Diff(tc.want, c.desiredUpdate(t)); diff != "" {
				t.Errorf("desiredUpdate (-want +got):\n%s", diff)
			}
			if tc.want == nil {
				for _, a := range c.config.Actions() {
					if v := a.GetVerb(); v != "get" && v != "list" && v != "watch" {
						t.Errorf("wrote to the cluster: %s %s", v, a.GetResource().Resource)
					}
				}
			}
		})
	}
}
