package manifests

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	serverconsoleplugin "github.com/update-insights/update-insights-operator/pkg/consoleplugin"
	"github.com/update-insights/update-insights-operator/pkg/controllers/consoleplugin"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// A rule the operator (or, for its metrics, Prometheus) is allowed, and why.
type allowedRule struct {
	groups, resources, resourceNames, verbs []string
	why                                     string
}

// allowedRoles lists every Role and ClusterRole of the manifests with every
// rule it may grant: a rule not listed here fails the test, so that a new
// permission comes with a reason.
var allowedRoles = []struct {
	kind, namespace, name string
	rules                 []allowedRule
}{{
	kind: "ClusterRole", name: "update-insights-operator",
	rules: []allowedRule{{
		groups: []string{"config.openshift.io"}, resources: []string{"clusterversions", "clusteroperators"}, verbs: []string{"get", "list", "watch"},
		why: "the progress of an update is read from ClusterVersion and the ClusterOperators",
	}, {
		groups: []string{"config.openshift.io"}, resources: []string{"clusteroperators"}, verbs: []string{"create"},
		why: "the operator recreates its ClusterOperator if deleted; create cannot be limited by resourceNames",
	}, {
		groups: []string{"config.openshift.io"}, resources: []string{"clusteroperators/status"}, resourceNames: []string{"update-insights"}, verbs: []string{"get", "update", "patch"},
		why: "the operator reports its status in its own ClusterOperator only",
	}, {
		groups: []string{""}, resources: []string{"nodes"}, verbs: []string{"get", "list", "watch"},
		why: "nodes are the input of the node insights",
	}, {
		groups: []string{"machineconfiguration.openshift.io"}, resources: []string{"machineconfigpools", "machineconfigs"}, verbs: []string{"get", "list", "watch"},
		why: "pools and their configs are the input of the node and pool insights",
	}, {
		groups: []string{"machineconfiguration.openshift.io"}, resources: []string{"machineosconfigs", "machineosbuilds", "machineconfignodes"}, verbs: []string{"get", "list", "watch"},
		why: "an image-mode pool's update waits on its OS image build, and a MachineConfigNode tells each step of a node's update",
	}, {
		groups: []string{"config.openshift.io"}, resources: []string{"infrastructures"}, verbs: []string{"get"},
		why: "controllercmd reads the control plane topology to size leader election",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: insightResources(""), verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"},
		why: "the operator owns the insights",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: insightResources("/status"), verbs: []string{"get", "update", "patch"},
		why: "the insights are entirely status",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: []string{"updatestatuses"}, verbs: []string{"get", "list", "watch", "create"},
		why: "the operator creates the one UpdateStatus and keeps it in its cache; it never deletes it",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: []string{"updatestatuses/status"}, verbs: []string{"get", "update", "patch"},
		why: "the UpdateStatus is entirely status",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: []string{"updaterecords"}, verbs: []string{"get", "list", "watch", "create", "delete"},
		why: "the operator creates a record as an update starts, keeps it after it ends, and deletes the least important beyond the number kept",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: []string{"updaterecords/status"}, verbs: []string{"get", "update", "patch"},
		why: "a record is entirely status, written as the update runs",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: []string{"updateinformers"}, verbs: []string{"get", "list", "watch", "patch"},
		why: "the operator calls the UpdateInformers, and patches one's spec only to inject the CA its annotation names",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: []string{"updateinformers/status"}, verbs: []string{"get", "update", "patch"},
		why: "the operator reports in an UpdateInformer's status whether it answers",
	}, {
		groups: []string{""}, resources: []string{"services"}, verbs: []string{"get", "list", "watch"},
		why: "a Service-backed informer's Service maps its port to its endpoints' port; it is read before each call, and watched by name to call the informer when it changes",
	}, {
		groups: []string{"discovery.k8s.io"}, resources: []string{"endpointslices"}, verbs: []string{"list", "watch"},
		why: "a Service-backed informer is reached at a ready endpoint, without cluster DNS; its slices are listed by label before each call, and watched by label to call the informer as soon as they appear",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: []string{"updateplans"}, verbs: []string{"get", "list", "watch", "delete"},
		why: "administrators create the plans; the operator fills them, and deletes those whose target the cluster reached or no one touched for --plan-ttl",
	}, {
		groups: []string{insightsv1alpha1.GroupName}, resources: []string{"updateplans/status"}, verbs: []string{"get", "update", "patch"},
		why: "a plan's findings are its status",
	}, {
		groups: []string{"policy"}, resources: []string{"poddisruptionbudgets"}, verbs: []string{"get", "list", "watch"},
		why: "the pre-checks find the budgets that allow no disruption, and the node controller those that hold a drain",
	}, {
		groups: []string{""}, resources: []string{"pods"}, verbs: []string{"list", "watch"},
		why: "the pre-checks list the pods of a budget that allows no disruption (and those only), to find the drains it holds up; " +
			"the node controller watches the pods of the nodes being drained (by spec.nodeName) and those waiting to be scheduled, to say what holds a drain",
	}, {
		groups: []string{"apps"}, resources: []string{"daemonsets"}, verbs: []string{"list", "watch"},
		why: "kubectl's drain skips a DaemonSet's pod only while its DaemonSet exists; the node controller caches the DaemonSets' names to tell an orphan, which the drain evicts under its budget",
	}, {
		groups: []string{"apiserver.openshift.io"}, resources: []string{"apirequestcounts"}, verbs: []string{"get", "list", "watch"},
		why: "the pre-checks of a minor update find the APIs the target removes that were requested in the last 24 hours",
	}, {
		groups: []string{"operator.openshift.io"}, resources: []string{"cloudcredentials"}, resourceNames: []string{names.CloudCredential}, verbs: []string{"get", "list", "watch"},
		why: "the pre-checks of a minor update read whether manually maintained cloud credentials are marked ready for the target; the CloudCredential is listed and watched by name",
	}, {
		groups: []string{"operator.openshift.io"}, resources: []string{"consoles"}, resourceNames: []string{consoleplugin.ConsoleConfig}, verbs: []string{"get", "patch"},
		why: "the operator enables its console plugin once in the console's configuration, named cluster: it reads and patches that one object, and lists or watches none",
	}, {
		groups: []string{"operators.coreos.com"}, resources: []string{"clusterserviceversions", "subscriptions", "installplans"}, verbs: []string{"get", "list", "watch"},
		why: "OLM's operators are a source of insights: their CSVs, Subscriptions and InstallPlans are read, never written",
	}, {
		groups: []string{"hypershift.openshift.io"}, resources: []string{"hostedclusters", "nodepools", "controlplanecomponents"}, verbs: []string{"get", "list", "watch"},
		why: "on a management cluster, every hosted cluster's update is read from its HostedCluster, ControlPlaneComponents and NodePools, never written",
	}, {
		groups: []string{"cluster.x-k8s.io"}, resources: []string{"machines", "machinesets", "machinedeployments"}, verbs: []string{"get", "list", "watch"},
		why: "on a management cluster, a NodePool's machines are read from the Cluster API objects behind it, never written",
	}, {
		groups: []string{"authentication.k8s.io"}, resources: []string{"tokenreviews"}, verbs: []string{"create"},
		why: "the metrics endpoint delegates authentication to the API server",
	}, {
		groups: []string{"authorization.k8s.io"}, resources: []string{"subjectaccessreviews"}, verbs: []string{"create"},
		why: "the metrics endpoint delegates authorization to the API server",
	}},
}, {
	kind: "ClusterRole", name: consolePluginName,
	rules: []allowedRule{{
		groups: []string{"config.openshift.io"}, resources: []string{"apiservers"}, resourceNames: []string{serverconsoleplugin.APIServerName}, verbs: []string{"get", "list", "watch"},
		why: "the console plugin's server serves with the cluster's TLS security profile, which the APIServer named cluster sets; it watches that one object by name",
	}},
}, {
	kind: "ClusterRole", name: readerRole,
	rules: []allowedRule{{
		groups: []string{insightsv1alpha1.GroupName}, resources: readableResources, verbs: []string{"get", "list", "watch"},
		why: "a read-only administrator, through cluster-reader, reads what the operator writes: status, history and the console's views",
	}},
}, {
	kind: "Role", namespace: operatorNamespace, name: "update-insights-operator",
	rules: []allowedRule{{
		groups: []string{"coordination.k8s.io"}, resources: []string{"leases"}, verbs: []string{"get", "list", "watch", "create", "update", "patch"},
		why: "leader election holds a Lease in the operator namespace",
	}, {
		groups: []string{"", "events.k8s.io"}, resources: []string{"events"}, verbs: []string{"create", "update", "patch"},
		why: "the operator records Events on its Deployment",
	}, {
		groups: []string{""}, resources: []string{"pods"}, verbs: []string{"get"},
		why: "to name its Deployment as the source of its Events, the operator reads its Pod",
	}, {
		groups: []string{"apps"}, resources: []string{"replicasets"}, verbs: []string{"get"},
		why: "to name its Deployment as the source of its Events, the operator reads its Pod's ReplicaSet",
	}},
}, {
	kind: "Role", namespace: machineConfigNamespace, name: "update-insights-operator",
	rules: []allowedRule{{
		groups: []string{"apps"}, resources: []string{"deployments"}, verbs: []string{"get", "list", "watch"},
		why: "machine-config has updated only once it runs the image of the machine-config-operator Deployment",
	}, {
		groups: []string{""}, resources: []string{"pods"}, verbs: []string{"get", "list", "watch"},
		why: "a failed OS image build says why only in its build Job's pod's termination message",
	}},
}, {
	kind: "Role", namespace: names.ConfigManagedNamespace, name: "update-insights-operator",
	rules: []allowedRule{{
		groups: []string{""}, resources: []string{"configmaps"}, resourceNames: []string{names.AdminGates}, verbs: []string{"get", "list", "watch"},
		why: "the pre-checks of a minor update read the gates the administrator acknowledges before the cluster-version operator starts it; listed and watched by name",
	}},
}, {
	kind: "Role", namespace: names.ConfigNamespace, name: "update-insights-operator",
	rules: []allowedRule{{
		groups: []string{""}, resources: []string{"configmaps"}, resourceNames: []string{names.AdminAcks}, verbs: []string{"get", "list", "watch"},
		why: "the pre-checks of a minor update read the administrator's acknowledgements of the gates; listed and watched by name",
	}},
}, {
	kind: "Role", namespace: eventsNamespace, name: eventsRole,
	rules: []allowedRule{{
		groups: []string{"", "events.k8s.io"}, resources: []string{"events"}, verbs: []string{"create", "update", "patch"},
		why: "client-go records the Events of cluster-scoped objects, such as the ClusterVersion insight, in namespace default",
	}},
}, {
	kind: "Role", namespace: operatorNamespace, name: "prometheus-k8s",
	rules: []allowedRule{{
		groups: []string{""}, resources: []string{"services", "endpoints", "pods"}, verbs: []string{"get", "list", "watch"},
		why: "Prometheus discovers the metrics Service's targets",
	}, {
		groups: []string{"discovery.k8s.io"}, resources: []string{"endpointslices"}, verbs: []string{"get", "list", "watch"},
		why: "Prometheus discovers the metrics Service's targets from EndpointSlices",
	}},
}}

// readerRole is the ClusterRole that OpenShift aggregates into
// cluster-reader.
const readerRole = "update-insights-reader"

// readableResources are what the operator writes: every kind of the API
// but the UpdateInformers, which administrators write.
var readableResources = []string{
	"clusterversionprogressinsights", "clusteroperatorprogressinsights", "machineconfigpoolprogressinsights", "nodeprogressinsights",
	"updatehealthinsights", "hostedclusterprogressinsights", "nodepoolprogressinsights", "updatestatuses", "updateplans", "updaterecords",
}

// A read-only administrator reads every kind the operator writes: the
// reader role names every resource of the API but the UpdateInformers and
// carries the label OpenShift's cluster-reader aggregates.
func TestRBACLetsAReadOnlyAdministratorReadEveryOutput(t *testing.T) {
	var want []string
	apiPackage := reflect.TypeOf(insightsv1alpha1.UpdateRecord{}).PkgPath()
	for gvk, goType := range insightScheme(t).AllKnownTypes() {
		if goType.PkgPath() == apiPackage && !strings.HasSuffix(gvk.Kind, "List") && gvk.Kind != "UpdateInformer" {
			want = append(want, strings.ToLower(gvk.Kind)+pluralSuffix(gvk.Kind))
		}
	}
	got := append([]string(nil), readableResources...)
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the reader role's resources differ from the API's kinds but UpdateInformer (-API +role):\n%s", diff)
	}
	for _, m := range loadManifests(t) {
		if r, ok := m.object.(*rbacv1.ClusterRole); ok && r.Name == readerRole {
			if r.Labels["rbac.authorization.k8s.io/aggregate-to-cluster-reader"] != "true" {
				t.Errorf("%s: %s is not aggregated into cluster-reader", m.file, readerRole)
			}
			return
		}
	}
	t.Errorf("no ClusterRole %s", readerRole)
}

func pluralSuffix(kind string) string {
	if strings.HasSuffix(kind, "s") {
		return "es"
	}
	return "s"
}

func insightResources(suffix string) []string {
	var resources []string
	for _, plural := range []string{"clusterversionprogressinsights", "clusteroperatorprogressinsights", "nodeprogressinsights", "machineconfigpoolprogressinsights", "updatehealthinsights", "hostedclusterprogressinsights", "nodepoolprogressinsights"} {
		resources = append(resources, plural+suffix)
	}
	return resources
}

// A grant is one verb on one resource (limited to some names, or to none):
// rules compare as the grants they expand to, however they are grouped.
type grant struct {
	Group, Resource, Verb string
	ResourceNames         string
}

func grants(rules []rbacv1.PolicyRule) []grant {
	var gs []grant
	for _, r := range rules {
		names := slices.Clone(r.ResourceNames)
		slices.Sort(names)
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				for _, v := range r.Verbs {
					gs = append(gs, grant{Group: g, Resource: res, Verb: v, ResourceNames: strings.Join(names, ",")})
				}
			}
		}
		for _, url := range r.NonResourceURLs {
			for _, v := range r.Verbs {
				gs = append(gs, grant{Resource: "nonResourceURL:" + url, Verb: v})
			}
		}
	}
	slices.SortFunc(gs, func(a, b grant) int {
		return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
	})
	return slices.Compact(gs)
}

type roleKey struct{ kind, namespace, name string }

func (k roleKey) String() string {
	if k.namespace == "" {
		return k.kind + " " + k.name
	}
	return k.kind + " " + k.namespace + "/" + k.name
}

// manifestRoles returns the rules of every Role and ClusterRole of the
// payload.
func manifestRoles(t *testing.T) map[roleKey][]rbacv1.PolicyRule {
	t.Helper()
	return rolesOf(loadManifests(t))
}

// rolesOf returns the rules of every Role and ClusterRole among manifests.
func rolesOf(manifests []manifest) map[roleKey][]rbacv1.PolicyRule {
	roles := map[roleKey][]rbacv1.PolicyRule{}
	for _, m := range manifests {
		switch o := m.object.(type) {
		case *rbacv1.ClusterRole:
			roles[roleKey{"ClusterRole", "", o.Name}] = o.Rules
		case *rbacv1.Role:
			roles[roleKey{"Role", o.Namespace, o.Name}] = o.Rules
		}
	}
	return roles
}

// bindingOf returns the role a ClusterRoleBinding or RoleBinding binds (a
// Role in the binding's namespace, or a ClusterRole) and its subjects;
// false for any other object.
func bindingOf(o runtime.Object) (roleKey, []rbacv1.Subject, bool) {
	var namespace string
	var ref rbacv1.RoleRef
	var subjects []rbacv1.Subject
	switch o := o.(type) {
	case *rbacv1.ClusterRoleBinding:
		ref, subjects = o.RoleRef, o.Subjects
	case *rbacv1.RoleBinding:
		namespace, ref, subjects = o.Namespace, o.RoleRef, o.Subjects
	default:
		return roleKey{}, nil, false
	}
	if ref.Kind == "ClusterRole" {
		namespace = ""
	}
	return roleKey{ref.Kind, namespace, ref.Name}, subjects, true
}

func TestRBACGrantsOnlyTheAllowedRules(t *testing.T) {
	got := manifestRoles(t)
	for _, role := range allowedRoles {
		key := roleKey{role.kind, role.namespace, role.name}
		t.Run(key.String(), func(t *testing.T) {
			rules, ok := got[key]
			if !ok {
				t.Fatalf("no %s among the manifests", key)
			}
			var want []rbacv1.PolicyRule
			for _, r := range role.rules {
				if r.why == "" {
					t.Errorf("allowed rule %+v has no reason", r)
				}
				want = append(want, rbacv1.PolicyRule{APIGroups: r.groups, Resources: r.resources, ResourceNames: r.resourceNames, Verbs: r.verbs})
			}
			if diff := cmp.Diff(grants(want), grants(rules)); diff != "" {
				t.Errorf("grants differ from the allowed rules (-allowed +manifest); a new rule needs a reason in allowedRoles:\n%s", diff)
			}
		})
		delete(got, key)
	}
	for key := range got {
		t.Errorf("%s is not among the allowed roles", key)
	}
}

func TestRBACRulesAreNarrowAndEffective(t *testing.T) {
	for key, rules := range manifestRoles(t) {
		for _, r := range rules {
			for _, field := range [][]string{r.APIGroups, r.Resources, r.Verbs, r.ResourceNames, r.NonResourceURLs} {
				if slices.Contains(field, "*") {
					t.Errorf("%s: rule %+v uses a wildcard", key, r)
				}
			}
			// The name of an object to create, or of the objects of a
			// collection to delete, is not known when the request is
			// authorized: such a rule grants nothing.
			if len(r.ResourceNames) > 0 && (slices.Contains(r.Verbs, "create") || slices.Contains(r.Verbs, "deletecollection")) {
				t.Errorf("%s: rule %+v limits create or deletecollection by resourceNames, which never matches", key, r)
			}
		}
		if key.kind == "ClusterRole" {
			for _, g := range grants(rules) {
				if g.Group == "coordination.k8s.io" && g.Resource == "leases" {
					t.Errorf("%s grants %s on leases cluster-wide; they belong to the operator namespace", key, g.Verb)
				}
			}
		}
	}
}

// Roles the cluster provides, which the manifests bind without defining.
var clusterProvidedRoles = []roleKey{
	{"Role", "kube-system", "extension-apiserver-authentication-reader"},
	// The monitoring stack's read-only role, which the Thanos querier's
	// proxy asks of whoever reads the alerts.
	{"ClusterRole", "", "cluster-monitoring-view"},
}

// The alerts controller reads the alerts through the Thanos querier, whose
// proxy lets only holders of cluster-monitoring-view through.
func TestRBACLetsTheOperatorReadTheAlerts(t *testing.T) {
	operator := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: serviceAccount, Namespace: operatorNamespace}
	for _, m := range loadManifests(t) {
		if b, ok := m.object.(*rbacv1.ClusterRoleBinding); ok && b.RoleRef.Kind == "ClusterRole" &&
			b.RoleRef.Name == "cluster-monitoring-view" && slices.Contains(b.Subjects, operator) {
			return
		}
	}
	t.Errorf("no ClusterRoleBinding grants cluster-monitoring-view to the operator's service account")
}

func TestRBACBindingsGrantTheirRolesToTheIntendedSubjects(t *testing.T) {
	roles := manifestRoles(t)
	operator := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: serviceAccount, Namespace: operatorNamespace}}
	// Platform Prometheus, which scrapes the operator's metrics.
	prometheus := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "prometheus-k8s", Namespace: "openshift-monitoring"}}
	// The console plugin's server, which reads the TLS security profile.
	plugin := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: consolePluginName, Namespace: operatorNamespace}}
	bound := map[roleKey]bool{}
	for _, m := range loadManifests(t) {
		key, subjects, ok := bindingOf(m.object)
		if !ok {
			continue
		}
		binding := m.object.(metav1.Object)
		t.Run(roleKey{m.object.GetObjectKind().GroupVersionKind().Kind, binding.GetNamespace(), binding.GetName()}.String(), func(t *testing.T) {
			if key.name == "cluster-admin" || key.name == "admin" || key.name == "edit" {
				t.Errorf("%s: binds the broad role %s", m.file, key.name)
			}
			bound[key] = true
			if _, ok := roles[key]; !ok && !slices.Contains(clusterProvidedRoles, key) {
				t.Errorf("%s: binds %s, which is neither among the manifests nor provided by the cluster", m.file, key)
			}
			want := operator
			switch key {
			case roleKey{"Role", operatorNamespace, "prometheus-k8s"}:
				want = prometheus
			case roleKey{"ClusterRole", "", consolePluginName}:
				want = plugin
			}
			if diff := cmp.Diff(want, subjects); diff != "" {
				t.Errorf("%s: subjects of %s differ (-want +got):\n%s", m.file, key, diff)
			}
		})
	}
	for key := range roles {
		// The reader role is aggregated into cluster-reader, not bound.
		if !bound[key] && key != (roleKey{"ClusterRole", "", readerRole}) {
			t.Errorf("%s is bound to no one", key)
		}
	}
}
