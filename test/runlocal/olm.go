package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/blang/semver/v4"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/olm"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// OLM's CRDs, which run-local installs, and its objects on run-local's
// cluster (test/testdata/olm/README.md): an operator capped at the minor
// release the cluster runs, and one whose CSV fails while the update plays
// forward.
var olmCRDs = []string{
	"test/testdata/olm/operators.coreos.com_clusterserviceversions.yaml",
	"test/testdata/olm/operators.coreos.com_subscriptions.yaml",
	"test/testdata/olm/operators.coreos.com_installplans.yaml",
}

const olmObjectsFile = "test/testdata/olm/run-local.yaml"

// The CSV that fails mid-update, and how, as OLM writes it when a
// Succeeded CSV's deployment loses its minimum availability
// (updateInstallStatus in pkg/controller/operators/olm/operator.go of
// operator-lifecycle-manager: phase Failed, reason ComponentUnhealthy,
// "installing: " and the install strategy's error), as the etcd CSV of
// test/testdata/olm/operators.yaml shows.
const (
	failingCSVNamespace = "etcd"
	failingCSVName      = "etcdoperator.v0.9.4"
	failingReason       = "ComponentUnhealthy"
	failingMessage      = `installing: waiting for deployment etcd-operator to become ready: deployment "etcd-operator" not available: Deployment does not have minimum availability.`
	// failingInsightUID is the uid of the insight OLM's informer makes of
	// it while the cluster updates (pkg/olm's unhealthy insight).
	failingInsightUID = "unhealthy/" + failingCSVNamespace + "/" + failingCSVName
	// What OLM writes once the deployment is available again: straight
	// back to Succeeded (updateInstallStatus, from Failed).
	recoveredReason  = "InstallSucceeded"
	recoveredMessage = "install strategy completed with no errors"
)

// recordedAgo is how long before now the recording's last moment is placed
// when the CSV fails mid-update. OLM's informer reports a CSV only once it
// has been out of Succeeded for olm.Settle, and as an error of the update
// only when it left Succeeded after the update started: the recording was
// taken 90 seconds into its update, and a played update takes minutes,
// so with the recording's last moment now no failure could be both. The
// recording is moved whole, its durations kept: the cluster is the one
// recorded, as it was a little longer ago, and its update started more than
// olm.Settle before the failure is dated (failedAgo).
const recordedAgo = olm.Settle + time.Minute

// failedAgo is how long before it is written the failure is dated: past
// olm.Settle, so that OLM's informer reports it at once rather than ten
// minutes into a play that takes less, and after the recording's last
// moment (recordedAgo), when the CSV was still Succeeded.
const failedAgo = olm.Settle + 30*time.Second

var (
	csvs          = operatorsv1alpha1.SchemeGroupVersion.WithResource("clusterserviceversions")
	subscriptions = operatorsv1alpha1.SchemeGroupVersion.WithResource("subscriptions")
	installPlans  = operatorsv1alpha1.SchemeGroupVersion.WithResource("installplans")
)

// olmObjects are OLM's objects as OLM writes them, whole (the operator's
// mirror of OLM's types keeps only what it reads).
type olmObjects []*unstructured.Unstructured

// loadOLMObjects reads OLM's objects from a YAML file, and moves the times
// of their status by moved, as the recording's were.
func loadOLMObjects(path string, moved time.Duration) (olmObjects, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objects olmObjects
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objects, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(obj) == 0 {
			continue
		}
		u := &unstructured.Unstructured{Object: obj}
		if u.GroupVersionKind().GroupVersion() != operatorsv1alpha1.SchemeGroupVersion {
			return nil, fmt.Errorf("%s: %s %s is not one of OLM's objects", path, u.GetKind(), u.GetName())
		}
		if status, ok := obj["status"]; ok {
			obj["status"] = moveTimes(status, moved)
		}
		objects = append(objects, u)
	}
}

// moveTimes moves every time (an RFC 3339 string) in v by d.
func moveTimes(v any, d time.Duration) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = moveTimes(e, d)
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = moveTimes(e, d)
		}
		return v
	case string:
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return t.Add(d).UTC().Format(time.RFC3339)
		}
	}
	return v
}

// cluster is the objects as the operator's informers read them.
func (o olmObjects) cluster() (olm.Cluster, error) {
	var c olm.Cluster
	for _, u := range o {
		var err error
		switch u.GetKind() {
		case "ClusterServiceVersion":
			csv := &operatorsv1alpha1.ClusterServiceVersion{}
			err = runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, csv)
			c.CSVs = append(c.CSVs, csv)
		case "Subscription":
			sub := &operatorsv1alpha1.Subscription{}
			err = runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, sub)
			c.Subscriptions = append(c.Subscriptions, sub)
		case "InstallPlan":
			plan := &operatorsv1alpha1.InstallPlan{}
			err = runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, plan)
			c.InstallPlans = append(c.InstallPlans, plan)
		default:
			err = errors.New("not a kind run-local installs")
		}
		if err != nil {
			return olm.Cluster{}, fmt.Errorf("%s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
		}
	}
	return c, nil
}

// checkCapped fails unless exactly one operator (not counting OLM's copies)
// declares an olm.maxOpenShiftVersion, equal to the minor release of
// current: the cap that blocks the next minor release and no update within
// current's, which is what the walkthrough shows. It returns that
// operator's CSV.
func (o olmObjects) checkCapped(current string) (*operatorsv1alpha1.ClusterServiceVersion, error) {
	c, err := o.cluster()
	if err != nil {
		return nil, err
	}
	v, err := semver.ParseTolerant(current)
	if err != nil {
		return nil, err
	}
	minor := semver.Version{Major: v.Major, Minor: v.Minor}
	var capped []*operatorsv1alpha1.ClusterServiceVersion
	for _, csv := range c.CSVs {
		if csv.IsCopied() {
			continue
		}
		max, err := olm.MaxOpenShiftVersion(csv)
		if err != nil {
			return nil, fmt.Errorf("CSV %s/%s: %w", csv.Namespace, csv.Name, err)
		}
		if max == nil {
			continue
		}
		if !max.EQ(minor) {
			return nil, fmt.Errorf("CSV %s/%s supports OpenShift up to %s: want the cap at %s, the minor release the cluster runs", csv.Namespace, csv.Name, max, minor)
		}
		capped = append(capped, csv)
	}
	if len(capped) != 1 {
		return nil, fmt.Errorf("want one operator capped at %d.%d, found %d", minor.Major, minor.Minor, len(capped))
	}
	return capped[0], nil
}

// olmCluster writes and changes OLM's objects on the local cluster, as OLM
// would.
type olmCluster struct {
	client  dynamic.Interface
	objects olmObjects
}

func newOLMCluster(cfg *rest.Config, objects olmObjects) (*olmCluster, error) {
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &olmCluster{client: client, objects: objects}, nil
}

// create creates the objects' namespaces and the objects: metadata and
// spec, then the status through the status subresource.
func (c *olmCluster) create(ctx context.Context, k *clients) error {
	var namespaces []string
	for _, o := range c.objects {
		if !slices.Contains(namespaces, o.GetNamespace()) {
			namespaces = append(namespaces, o.GetNamespace())
		}
	}
	for _, name := range namespaces {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if _, err := k.kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	for _, o := range c.objects {
		client, err := c.resource(o.GetKind())
		if err != nil {
			return err
		}
		created, err := client.Namespace(o.GetNamespace()).Create(ctx, o.DeepCopy(), metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("creating %s %s/%s: %w", o.GetKind(), o.GetNamespace(), o.GetName(), err)
		}
		status, ok := o.Object["status"]
		if !ok {
			continue
		}
		created.Object["status"] = runtime.DeepCopyJSONValue(status)
		if _, err := client.Namespace(o.GetNamespace()).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("writing %s %s/%s status: %w", o.GetKind(), o.GetNamespace(), o.GetName(), err)
		}
	}
	return nil
}

func (c *olmCluster) resource(kind string) (dynamic.NamespaceableResourceInterface, error) {
	switch kind {
	case "ClusterServiceVersion":
		return c.client.Resource(csvs), nil
	case "Subscription":
		return c.client.Resource(subscriptions), nil
	case "InstallPlan":
		return c.client.Resource(installPlans), nil
	}
	return nil, fmt.Errorf("%s is not a kind run-local installs", kind)
}

// fail makes the failing CSV Failed, as OLM does when its deployment
// loses its minimum availability, dated failedAgo before now, which must be
// after updateStarted: the failure is the update's.
func (c *olmCluster) fail(ctx context.Context, now, updateStarted time.Time) (time.Time, error) {
	at := now.Add(-failedAgo).Truncate(time.Second)
	if !at.After(updateStarted) {
		return time.Time{}, fmt.Errorf("the CSV's failure, dated %s, would be before the update started at %s", at.UTC().Format(time.RFC3339), updateStarted.UTC().Format(time.RFC3339))
	}
	return at, c.setPhase(ctx, operatorsv1alpha1.CSVPhaseFailed, failingReason, failingMessage, at)
}

// recover makes the failing CSV Succeeded again, as OLM does once its
// deployment is available again.
func (c *olmCluster) recover(ctx context.Context, now time.Time) error {
	return c.setPhase(ctx, operatorsv1alpha1.CSVPhaseSucceeded, recoveredReason, recoveredMessage, now.Truncate(time.Second))
}

// setPhase sets the failing CSV's phase on the cluster (see withPhase).
func (c *olmCluster) setPhase(ctx context.Context, phase operatorsv1alpha1.ClusterServiceVersionPhase, reason, message string, at time.Time) error {
	client := c.client.Resource(csvs).Namespace(failingCSVNamespace)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		csv, err := client.Get(ctx, failingCSVName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := withPhase(csv, phase, reason, message, at); err != nil {
			return err
		}
		_, err = client.UpdateStatus(ctx, csv, metav1.UpdateOptions{})
		return err
	})
}

// withPhase sets a CSV's phase, reason and message as OLM's SetPhase does:
// the status' times, and an entry appended to the phase history
// (status.conditions).
func withPhase(csv *unstructured.Unstructured, phase operatorsv1alpha1.ClusterServiceVersionPhase, reason, message string, at time.Time) error {
	when := at.UTC().Format(time.RFC3339)
	status, _, err := unstructured.NestedMap(csv.Object, "status")
	if err != nil {
		return err
	}
	if status == nil {
		status = map[string]any{}
	}
	history, _, err := unstructured.NestedSlice(status, "conditions")
	if err != nil {
		return err
	}
	status["phase"], status["reason"], status["message"] = string(phase), reason, message
	status["lastUpdateTime"], status["lastTransitionTime"] = when, when
	status["conditions"] = append(history, map[string]any{
		"phase": string(phase), "reason": reason, "message": message, "lastUpdateTime": when, "lastTransitionTime": when,
	})
	csv.Object["status"] = status
	return nil
}

// olmBlocker is what OLM's informer finds of an update that an operator's
// cap blocks: the finding's summary, and the remedy its description ends
// with.
type olmBlocker struct {
	summary, remedy string
}

// blocker is the finding OLM's informer makes of the update from current
// to target that the capped operator blocks, as pkg/olm makes it.
func (o olmObjects) blocker(current, target string) (olmBlocker, error) {
	c, err := o.cluster()
	if err != nil {
		return olmBlocker{}, err
	}
	for _, i := range olm.Plan(olm.PlanInput{Cluster: c, Current: current, Target: target, Now: time.Now()}) {
		if strings.HasPrefix(i.UID, "max-openshift-version/") {
			lines := strings.Split(i.Impact.Description, "\n")
			return olmBlocker{summary: i.Impact.Summary, remedy: lines[len(lines)-1]}, nil
		}
	}
	return olmBlocker{}, fmt.Errorf("no operator OLM installed blocks the update from %s to %s", current, target)
}
