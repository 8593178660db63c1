package upgrade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/update-insights/update-insights-operator/pkg/hostedupgrade"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/planview"
)

// managed is what --hosted-cluster or --nodepool names: the object whose
// spec.release.image the update sets.
type managed struct {
	kind      string
	resource  schema.GroupVersionResource
	namespace string
	name      string
	// resourceVersion is the object's as the checks read it.
	resourceVersion string
}

func (m managed) String() string { return m.kind + " " + m.namespace + "/" + m.name }

// runManagement updates, from the management cluster, a hosted cluster's
// control plane (--hosted-cluster) or one of its NodePools (--nodepool), by
// the object's spec.release.image: HyperShift rolls the control plane out to
// the HostedCluster's (hostedcluster_types.go HostedClusterSpec.Release) and
// each NodePool's machines to its own (nodepool_types.go NodePoolSpec.Release).
func (o *options) runManagement(ctx context.Context, out, errOut io.Writer, client dynamic.Interface) error {
	if o.hostedCluster != "" && o.nodePool != "" {
		return errors.New("--hosted-cluster updates a control plane and --nodepool a NodePool: take one or the other")
	}
	if bad := planview.CheckVersion(o.to); bad != nil {
		return bad
	}
	target, decision, err := o.decide(ctx, client)
	if err != nil {
		return err
	}
	for _, w := range decision.Warnings {
		fmt.Fprintf(errOut, "warning: %s\n", w)
	}
	switch {
	case decision.Already:
		fmt.Fprintf(out, "%s already asks for %s in spec.release.image.\n", target, o.to)
		return nil
	case len(decision.Refusals) > 0:
		return fmt.Errorf("refusing to update %s to %s: %s", target, o.to, strings.Join(decision.Refusals, "; "))
	}
	return o.setReleaseImage(ctx, out, client, target, decision.Image)
}

// decide reads the objects the update is judged by and judges it.
func (o *options) decide(ctx context.Context, client dynamic.Interface) (managed, hostedupgrade.Decision, error) {
	if o.nodePool != "" {
		target, err := parseManaged("NodePool", hypershift.NodePools, "--nodepool", o.nodePool)
		if err != nil {
			return target, hostedupgrade.Decision{}, err
		}
		np, rv, err := get[hypershift.NodePool](ctx, client, target)
		if err != nil {
			return target, hostedupgrade.Decision{}, err
		}
		target.resourceVersion = rv
		hc, _, err := get[hypershift.HostedClusterUpdate](ctx, client, managed{kind: "HostedCluster", resource: hypershift.HostedClusters, namespace: np.Namespace, name: np.Spec.ClusterName})
		if err != nil {
			return target, hostedupgrade.Decision{}, err
		}
		return target, hostedupgrade.NodePool(np, hc, o.to), nil
	}
	target, err := parseManaged("HostedCluster", hypershift.HostedClusters, "--hosted-cluster", o.hostedCluster)
	if err != nil {
		return target, hostedupgrade.Decision{}, err
	}
	hc, rv, err := get[hypershift.HostedClusterUpdate](ctx, client, target)
	if err != nil {
		return target, hostedupgrade.Decision{}, err
	}
	target.resourceVersion = rv
	list, err := client.Resource(hypershift.NodePools).Namespace(target.namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return target, hostedupgrade.Decision{}, output.OneLine(fmt.Errorf("listing the NodePools of %s, whose skew the update must keep: %w", target.namespace, err))
	}
	var nodePools []*hypershift.NodePool
	for i := range list.Items {
		np, err := hypershift.Convert[hypershift.NodePool](&list.Items[i])
		if err != nil {
			return target, hostedupgrade.Decision{}, fmt.Errorf("reading a NodePool, whose skew the update must keep: %w", err)
		}
		nodePools = append(nodePools, np)
	}
	return target, hostedupgrade.ControlPlane(hc, nodePools, o.to, o.allowNotRecommended), nil
}

func parseManaged(kind string, resource schema.GroupVersionResource, flag, value string) (managed, error) {
	namespace, name, ok := strings.Cut(value, "/")
	if !ok || namespace == "" || name == "" || strings.Contains(name, "/") {
		return managed{}, fmt.Errorf("%s %q: want NAMESPACE/NAME, the %s's", flag, value, kind)
	}
	return managed{kind: kind, resource: resource, namespace: namespace, name: name}, nil
}

// get reads m as a T, and its resource version.
func get[T hypershift.Object](ctx context.Context, client dynamic.Interface, m managed) (*T, string, error) {
	u, err := client.Resource(m.resource).Namespace(m.namespace).Get(ctx, m.name, metav1.GetOptions{})
	if err != nil {
		return nil, "", output.OneLine(fmt.Errorf("reading %s: %w", m, err))
	}
	obj, err := hypershift.Convert[T](u)
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", m, err)
	}
	return obj, u.GetResourceVersion(), nil
}

// setReleaseImage sets m's spec.release.image with a merge patch that
// carries the resource version the checks read, so that the API server
// refuses it if the object changed since. With dryRun the API server checks
// the write and stores nothing, and the patch is printed.
func (o *options) setReleaseImage(ctx context.Context, out io.Writer, client dynamic.Interface, m managed, image string) error {
	body, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": m.resourceVersion},
		"spec":     map[string]any{"release": map[string]any{"image": image}},
	})
	if err != nil {
		return err
	}
	options := metav1.PatchOptions{}
	if o.dryRun {
		options.DryRun = []string{metav1.DryRunAll}
	}
	if _, err := client.Resource(m.resource).Namespace(m.namespace).Patch(ctx, m.name, types.MergePatchType, body, options); err != nil {
		return output.OneLine(fmt.Errorf("setting %s's spec.release.image: %w", m, err))
	}
	if o.dryRun {
		fmt.Fprintf(out, "Would set %s's spec.release.image to %s: the API server accepted the patch and stored nothing.\n", m, image)
		return nil
	}
	fmt.Fprintf(out, "Requested update of %s to %s: spec.release.image is %s\n", m, o.to, image)
	return nil
}
