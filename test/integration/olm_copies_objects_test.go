package integration

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// olmOperator is one of BenchmarkOLMCopiedCSVs' operators: installed in a
// namespace of its own, for all namespaces (an OperatorGroup without
// target namespaces), which is what makes OLM copy its CSV.
type olmOperator struct {
	index                               int
	pkg, namespace, csv, version, group string
	// capped operators declare olm.maxOpenShiftVersion olmCappedAt.
	capped bool
}

func newOLMOperator(i int) olmOperator {
	pkg := fmt.Sprintf("bench-operator-%02d", i)
	version := fmt.Sprintf("1.%d.0", i)
	return olmOperator{
		index: i, pkg: pkg, namespace: pkg, csv: pkg + ".v" + version, version: version,
		group: pkg + ".example.com", capped: i%olmCappedEvery == 0,
	}
}

// csvBodies are the JSON of a CSV to create, and of its status.
type csvBodies struct {
	object, status []byte
}

// bodies are those of the operator's CSV and of its copies, which differ
// as OLM's operator-group controller makes them (csvCopyPrototype and
// copyToNamespace): every annotation but olm.targetNamespaces, the label
// olm.copiedFrom instead of the operator's own labels, the same spec, the
// same status but for its reason and message.
func (o olmOperator) bodies(b *testing.B) (original, copied csvBodies) {
	annotations := o.annotations()
	labels := map[string]string{fmt.Sprintf("operators.coreos.com/%s.%s", o.pkg, o.namespace): ""}
	status := o.status()
	original = csvBodies{object: mustJSON(b, o.object(o.namespace, labels, annotations)), status: mustJSON(b, status)}

	copyAnnotations := map[string]string{}
	for k, v := range annotations {
		if k != "olm.targetNamespaces" {
			copyAnnotations[k] = v
		}
	}
	status["reason"] = operatorsv1alpha1.CSVReasonCopied
	status["message"] = fmt.Sprintf("The operator is running in %s but is managing this namespace", o.namespace)
	copied = csvBodies{
		object: mustJSON(b, o.object("", map[string]string{operatorsv1alpha1.CopiedLabelKey: o.namespace}, copyAnnotations)),
		status: mustJSON(b, status),
	}
	return original, copied
}

func mustJSON(b *testing.B, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// object is the CSV without its status, in namespace (the request's when
// empty).
func (o olmOperator) object(namespace string, labels, annotations map[string]string) map[string]any {
	metadata := map[string]any{"name": o.csv, "labels": labels, "annotations": annotations}
	if namespace != "" {
		metadata["namespace"] = namespace
	}
	return map[string]any{
		"apiVersion": operatorsv1alpha1.SchemeGroupVersion.String(),
		"kind":       "ClusterServiceVersion",
		"metadata":   metadata,
		"spec":       o.spec(),
	}
}

func (o olmOperator) image() string {
	return fmt.Sprintf("registry.example.com/%s/controller@sha256:%x", o.pkg, sha256.Sum256([]byte(o.csv)))
}

func (o olmOperator) kind() string { return fmt.Sprintf("Widget%02d", o.index) }

// annotations are those OLM and the bundle put on a CSV: the operator
// group's, the bundle's properties, and the bundle's own metadata, of
// which alm-examples, examples of the operator's resources, is the
// largest.
func (o olmOperator) annotations() map[string]string {
	properties := []map[string]any{
		{"type": "olm.gvk", "value": map[string]any{"group": o.group, "kind": o.kind(), "version": "v1"}},
		{"type": "olm.package", "value": map[string]any{"packageName": o.pkg, "version": o.version}},
	}
	if o.capped {
		properties = append(properties, map[string]any{"type": "olm.maxOpenShiftVersion", "value": olmCappedAt})
	}
	props, _ := json.Marshal(map[string]any{"properties": properties})
	return map[string]string{
		"olm.operatorGroup":                    "global-operators",
		"olm.operatorNamespace":                o.namespace,
		"olm.targetNamespaces":                 "",
		operatorsv1alpha1.PropertiesAnnotation: string(props),
		"alm-examples":                         o.almExamples(),
		"capabilities":                         "Full Lifecycle",
		"categories":                           "Database,Storage",
		"containerImage":                       o.image(),
		"createdAt":                            "2026-10-01T12:00:00Z",
		"description":                          "Runs and scales " + o.kind() + " clusters.",
		"olm.skipRange":                        ">=1.0.0 <" + o.version,
		"operatorframework.io/suggested-namespace":      o.namespace,
		"operators.operatorframework.io/builder":        "operator-sdk-v1.34.1",
		"operators.operatorframework.io/project_layout": "go.kubebuilder.io/v4",
		"repository": "https://github.com/example/" + o.pkg,
		"support":    "Example, Inc.",
	}
}

// almExamples is about 2 KB of example resources, as bundles ship them.
func (o olmOperator) almExamples() string {
	var examples []map[string]any
	for _, size := range []string{"small", "medium", "large", "xlarge"} {
		examples = append(examples, map[string]any{
			"apiVersion": o.group + "/v1",
			"kind":       o.kind(),
			"metadata":   map[string]any{"name": "example-" + size, "labels": map[string]string{"app.kubernetes.io/part-of": o.pkg}},
			"spec": map[string]any{
				"size":     size,
				"replicas": 3,
				"version":  o.version,
				"storage":  map[string]any{"size": "20Gi", "storageClassName": "gp3-csi", "accessModes": []string{"ReadWriteOnce"}},
				"resources": map[string]any{
					"limits":   map[string]string{"cpu": "2", "memory": "4Gi"},
					"requests": map[string]string{"cpu": "500m", "memory": "1Gi"},
				},
				"tls":        map[string]any{"enabled": true, "secretName": "example-" + size + "-tls"},
				"monitoring": map[string]any{"enabled": true, "interval": "30s"},
			},
		})
	}
	out, _ := json.Marshal(examples)
	return string(out)
}

// spec is the CSV's spec: about 1 KB of description, and the install
// strategy with one deployment, as bundles have.
func (o olmOperator) spec() map[string]any {
	labels := map[string]string{"app.kubernetes.io/name": o.pkg, "control-plane": "controller-manager"}
	serviceAccount := o.pkg + "-controller-manager"
	probe := func(path string) map[string]any {
		return map[string]any{"httpGet": map[string]any{"path": path, "port": 8081}, "initialDelaySeconds": 15, "periodSeconds": 20}
	}
	description := strings.Repeat(fmt.Sprintf("The %s operator deploys, configures, upgrades and backs up %s clusters on OpenShift. "+
		"It watches every namespace, so that each team can create its own clusters, and reconciles them with their spec. ", o.pkg, o.kind()), 5)
	return map[string]any{
		"displayName":    fmt.Sprintf("Bench Operator %02d", o.index),
		"version":        o.version,
		"description":    description,
		"provider":       map[string]any{"name": "Example, Inc."},
		"maintainers":    []map[string]string{{"name": "Example maintainers", "email": "maintainers@example.com"}},
		"keywords":       []string{"database", "storage", o.kind()},
		"links":          []map[string]string{{"name": "Documentation", "url": "https://docs.example.com/" + o.pkg}},
		"maturity":       "stable",
		"minKubeVersion": "1.25.0",
		"installModes": []map[string]any{
			{"type": "OwnNamespace", "supported": true}, {"type": "SingleNamespace", "supported": true},
			{"type": "MultiNamespace", "supported": false}, {"type": "AllNamespaces", "supported": true},
		},
		"customresourcedefinitions": map[string]any{"owned": []map[string]any{{
			"name": strings.ToLower(o.kind()) + "s." + o.group, "version": "v1", "kind": o.kind(), "displayName": o.kind(),
			"description": "A " + o.kind() + " cluster.",
		}}},
		"install": map[string]any{
			"strategy": "deployment",
			"spec": map[string]any{
				"clusterPermissions": []map[string]any{{
					"serviceAccountName": serviceAccount,
					"rules": []map[string]any{
						{"apiGroups": []string{o.group}, "resources": []string{strings.ToLower(o.kind()) + "s", strings.ToLower(o.kind()) + "s/status"},
							"verbs": []string{"create", "delete", "get", "list", "patch", "update", "watch"}},
						{"apiGroups": []string{""}, "resources": []string{"pods", "services", "secrets", "configmaps"}, "verbs": []string{"get", "list", "watch", "create", "update"}},
					},
				}},
				"deployments": []map[string]any{{
					"name": o.pkg + "-controller-manager",
					"spec": map[string]any{
						"replicas": 1,
						"selector": map[string]any{"matchLabels": labels},
						"template": map[string]any{
							"metadata": map[string]any{"labels": labels},
							"spec": map[string]any{
								"serviceAccountName": serviceAccount,
								"securityContext":    map[string]any{"runAsNonRoot": true},
								"containers": []map[string]any{{
									"name":           "manager",
									"image":          o.image(),
									"args":           []string{"--leader-elect", "--health-probe-bind-address=:8081", "--metrics-bind-address=127.0.0.1:8080"},
									"livenessProbe":  probe("/healthz"),
									"readinessProbe": probe("/readyz"),
									"resources": map[string]any{
										"limits":   map[string]string{"cpu": "500m", "memory": "512Mi"},
										"requests": map[string]string{"cpu": "10m", "memory": "64Mi"},
									},
								}},
							},
						},
					},
				}},
			},
		},
		"relatedImages": []map[string]string{{"name": "controller", "image": o.image()}},
	}
}

// status is the CSV's status once OLM installed it three days ago: its
// phase history and the requirements it checked.
func (o olmOperator) status() map[string]any {
	installed := time.Now().Add(-72 * time.Hour).UTC().Truncate(time.Second)
	at := func(d time.Duration) string { return installed.Add(d).Format(time.RFC3339) }
	entry := func(phase, reason, message string, d time.Duration) map[string]any {
		return map[string]any{"phase": phase, "reason": reason, "message": message, "lastUpdateTime": at(d), "lastTransitionTime": at(d)}
	}
	succeeded := "install strategy completed with no errors"
	return map[string]any{
		"phase": "Succeeded", "reason": "InstallSucceeded", "message": succeeded,
		"lastUpdateTime": at(70 * time.Second), "lastTransitionTime": at(70 * time.Second),
		"conditions": []map[string]any{
			entry("Pending", "RequirementsUnknown", "requirements not yet checked", time.Second),
			entry("InstallReady", "AllRequirementsMet", "all requirements found, attempting install", 2*time.Second),
			entry("Installing", "InstallSucceeded", "waiting for install components to report healthy", 3*time.Second),
			entry("Succeeded", "InstallSucceeded", succeeded, 70*time.Second),
		},
		"requirementStatus": []map[string]any{
			{"group": "apiextensions.k8s.io", "version": "v1", "kind": "CustomResourceDefinition", "name": strings.ToLower(o.kind()) + "s." + o.group,
				"status": "Present", "message": "CRD is present and Established condition is true"},
			{"group": "", "version": "v1", "kind": "ServiceAccount", "name": o.pkg + "-controller-manager", "status": "Present", "message": ""},
		},
	}
}
