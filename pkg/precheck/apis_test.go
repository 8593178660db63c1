package precheck

import (
	"errors"
	"testing"

	"github.com/blang/semver/v4"
	"github.com/google/go-cmp/cmp"
	apiserverv1 "github.com/openshift/api/apiserver/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// requests is what a user requested of a resource in an hour on a node:
// its name, then verb and count pairs.
type requests struct {
	user  string
	verbs []any
}

// apiRequestCount is the APIRequestCount of resource, removed in removed,
// with one hour of requests per entry of hours, all on one node.
func apiRequestCount(resource, removed string, hours ...[]requests) *apiserverv1.APIRequestCount {
	c := &apiserverv1.APIRequestCount{ObjectMeta: metav1.ObjectMeta{Name: resource}, Status: apiserverv1.APIRequestCountStatus{RemovedInRelease: removed}}
	for _, hour := range hours {
		node := apiserverv1.PerNodeAPIRequestLog{NodeName: "master-0"}
		for _, r := range hour {
			user := apiserverv1.PerUserAPIRequestCount{UserName: r.user, UserAgent: "agent/1.0"}
			for i := 0; i+1 < len(r.verbs); i += 2 {
				n := int64(r.verbs[i+1].(int))
				user.ByVerb = append(user.ByVerb, apiserverv1.PerVerbAPIRequestCount{Verb: r.verbs[i].(string), RequestCount: n})
				user.RequestCount += n
			}
			node.ByUser = append(node.ByUser, user)
			node.RequestCount += user.RequestCount
		}
		c.Status.Last24h = append(c.Status.Last24h, apiserverv1.PerResourceAPIRequestLog{ByNode: []apiserverv1.PerNodeAPIRequestLog{node}, RequestCount: node.RequestCount})
	}
	return c
}

func TestKubernetesMinor(t *testing.T) {
	for openshift, want := range map[string]string{"4.3.0": "1.16", "4.13.0": "1.26", "4.14.2": "1.27", "4.17.0-ec.1": "1.30", "4.19.0": "1.32", "4.2.0": "", "5.0.0": ""} {
		got, ok := kubernetesMinor(mustParse(t, openshift))
		if got != want || ok != (want != "") {
			t.Errorf("kubernetesMinor(%s) = %q, %v; want %q", openshift, got, ok, want)
		}
	}
}

func TestRemovedAPIs(t *testing.T) {
	// The cluster runs 4.16 (Kubernetes 1.29); 4.17 brings 1.30.
	flowSchemas := "flowschemas.v1beta3.flowcontrol.apiserver.k8s.io"
	tests := []struct {
		name       string
		target     string
		counts     []*apiserverv1.APIRequestCount
		unreadable error
		gates      []string
		want       []seen
	}{
		{
			name: "a removed API still in use", target: "4.17.2",
			counts: []*apiserverv1.APIRequestCount{apiRequestCount(flowSchemas, "1.30",
				[]requests{{"system:serviceaccount:monitoring:agent", []any{"list", 20, "watch", 2}}},
				[]requests{{"system:serviceaccount:monitoring:agent", []any{"get", 5}}, {"alice", []any{"get", 40}}})},
			want: []seen{{"removed-api/" + flowSchemas, "warning", "API " + flowSchemas + ", which Kubernetes 1.30 removes, was requested 67 times in the last 24 hours, the most by alice"}},
		},
		{
			name: "a removed API no longer used", target: "4.17.2",
			counts: []*apiserverv1.APIRequestCount{apiRequestCount(flowSchemas, "1.30", []requests{})},
		},
		{
			name: "an API removed after the target", target: "4.17.2",
			counts: []*apiserverv1.APIRequestCount{apiRequestCount("widgets.v1beta1.example.com", "1.31", []requests{{"alice", []any{"get", 3}}})},
		},
		{
			name: "an API removed before, in a two-minor update", target: "4.18.0",
			counts: []*apiserverv1.APIRequestCount{apiRequestCount(flowSchemas, "1.30", []requests{{"alice", []any{"get", 3}}})},
			want:   []seen{{"removed-api/" + flowSchemas, "warning", "API " + flowSchemas + ", which Kubernetes 1.30 removes, was requested 3 times in the last 24 hours, the most by alice"}},
		},
		{
			name: "an API that is not to be removed", target: "4.17.2",
			counts: []*apiserverv1.APIRequestCount{apiRequestCount("pods.v1", "", []requests{{"alice", []any{"get", 3}}})},
		},
		{
			name: "a patch update keeps the Kubernetes version", target: "4.16.5",
			counts: []*apiserverv1.APIRequestCount{apiRequestCount(flowSchemas, "1.29", []requests{{"alice", []any{"get", 3}}})},
		},
		{
			name: "APIRequestCounts not served", target: "4.17.2", unreadable: errors.New("the cluster does not serve apirequestcounts.apiserver.openshift.io/v1"),
			want: []seen{{uidRemovedAPIsUnread, "warning", "Which APIs the update to 4.17.2 (Kubernetes 1.30) removes while still in use could not be checked"}},
		},
		{
			name: "a target whose Kubernetes version is not known", target: "5.0.0",
			want: []seen{{uidRemovedAPIsUnread, "warning", "Which APIs the update to 5.0.0 removes could not be checked: which Kubernetes version OpenShift 5.0 ships is not known here"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &Input{ClusterVersion: clusterVersion(), Target: tt.target, APIRequestCounts: tt.counts, APIRequestCountsUnreadable: tt.unreadable, Now: now}
			if diff := cmp.Diff(tt.want, seenOf(removedAPIs(in))); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRemovedAPIDescription(t *testing.T) {
	flowSchemas := "flowschemas.v1beta3.flowcontrol.apiserver.k8s.io"
	var users []requests
	for _, u := range []string{"u1", "u2", "u3", "u4", "u5", "u6"} {
		users = append(users, requests{u, []any{"get", 1}})
	}
	counts := []*apiserverv1.APIRequestCount{apiRequestCount(flowSchemas, "1.30",
		append(users, requests{"system:serviceaccount:monitoring:agent", []any{"watch", 2, "list", 20}}),
		[]requests{{"system:serviceaccount:monitoring:agent", []any{"get", 5}}})}
	command := `oc get apirequestcounts ` + flowSchemas + ` -o jsonpath='{range .status.last24h..byUser[*]}{..byVerb[*].verb}{","}{.username}{","}{.userAgent}{"\n"}{end}' | sort -k 2 -t, -u`
	users5 := "The update to 4.17.2 brings Kubernetes 1.30, which no longer serves " + flowSchemas + ": the clients still using it fail once the cluster updates, " +
		"unless they move first to a version that is still served (the reference lists the replacements).\n" +
		"Its users in the last 24 hours, the most requests first:\n" +
		"  system:serviceaccount:monitoring:agent: 27 times (get, list, watch)\n" +
		"  u1: once (get)\n  u2: once (get)\n  u3: once (get)\n  u4: once (get)\n  and 2 more\n"
	tests := []struct {
		name        string
		gates, acks []string
		want        string
	}{
		{
			name: "no gate covers it",
			want: users5 + "No admin gate covers the APIs Kubernetes 1.30 removes: nothing holds the update back while they are in use.\n" +
				"Who requested it, and with which client:\n" + command,
		},
		{
			name:  "a gate covers it",
			gates: []string{apiRemovalsGate, apiRemovalsText, "ack-4.16-other", "Other."},
			want: users5 + "Admin gate " + apiRemovalsGate + " covers the APIs Kubernetes 1.30 removes: acknowledge it once no client needs them.\n" +
				"Who requested it, and with which client:\n" + command,
		},
		{
			name:  "the gate that covers it is acknowledged",
			gates: []string{apiRemovalsGate, apiRemovalsText}, acks: []string{apiRemovalsGate, "true"},
			want: users5 + "Admin gate " + apiRemovalsGate + " covers the APIs Kubernetes 1.30 removes, and is acknowledged, although this one is still in use.\n" +
				"Who requested it, and with which client:\n" + command,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &Input{ClusterVersion: clusterVersion(), Target: "4.17.2", APIRequestCounts: counts, AdminGates: gatesOf(tt.gates...), AdminAcks: acksOf(tt.acks...), Now: now}
			got := removedAPIs(in)
			if len(got) != 1 {
				t.Fatalf("findings %v, want one", seenOf(got))
			}
			if diff := cmp.Diff(tt.want, got[0].Impact.Description); diff != "" {
				t.Errorf("description (-want +got):\n%s", diff)
			}
		})
	}
}

func mustParse(t *testing.T, version string) semver.Version {
	t.Helper()
	v, err := semver.Parse(version)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
