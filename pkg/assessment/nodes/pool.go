package nodes

import (
	"fmt"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
)

// Reasons of a pool's Updating and Healthy conditions.
const (
	PoolReasonProgressing   = "Progressing"
	PoolReasonCompleted     = "Completed"
	PoolReasonPending       = "Pending"
	PoolReasonPaused        = "Paused"
	PoolReasonNodesDegraded = "NodesDegraded"
	// PoolReasonBuildingImage is an image-mode pool whose nodes wait on the
	// OS image being built for its target configuration.
	PoolReasonBuildingImage = "BuildingImage"
	// PoolReasonImageBuildStopped is an image-mode pool whose build failed
	// or was interrupted: its nodes wait until a build succeeds.
	PoolReasonImageBuildStopped = "ImageBuildStopped"
)

// PoolImage is what an image-mode pool's assessment reads of its OS image
// build.
type PoolImage struct {
	Pool *imagemode.Pool
	// Failure is the builder's account of a failed build.
	Failure imagemode.Failure
	// ForUpdate says the pool's target configuration is of the version the
	// cluster updates to: its build is the update's. Before the update
	// reaches the pool (the machine-config operator renders the pool's new
	// configuration late in the control plane's update), the build is of
	// the configuration the nodes run, and holds no update.
	ForUpdate bool
	status    *insightsv1alpha1.PoolImageBuild
}

// NewPoolImage assesses the build of an image-mode pool for its target
// configuration; nil for a pool without a MachineOSConfig.
func NewPoolImage(pool *machineconfigurationv1.MachineConfigPool, p *imagemode.Pool, failure imagemode.Failure, forUpdate bool, now time.Time) *PoolImage {
	if p == nil {
		return nil
	}
	return &PoolImage{Pool: p, Failure: failure, ForUpdate: forUpdate, status: imagemode.Status(p, pool.Spec.Configuration.Name, failure, now)}
}

// Status is the pool insight's imageBuild.
func (i *PoolImage) Status() *insightsv1alpha1.PoolImageBuild {
	if i == nil {
		return nil
	}
	return i.status
}

// blocking says the update's build failed or was interrupted.
func (i *PoolImage) blocking() bool { return i != nil && i.ForUpdate && i.Pool.Blocking() }

// building says the pool's nodes wait on the update's build, which has not
// failed: not yet created, not started, building, or succeeded but not yet
// taken.
func (i *PoolImage) building() bool {
	return i != nil && i.ForUpdate && !i.Pool.Ready() && !i.Pool.Blocking()
}

// built says the update's build is done and its image taken: the node
// controller gives the nodes the configuration and the image as they may
// take them.
func (i *PoolImage) built() bool { return i != nil && i.ForUpdate && i.Pool.Ready() }

// counts are a pool's nodes by state.
type counts struct {
	total, updated, available, progressing, draining, excluded, degraded int32
	// atConfiguration counts the nodes that run the pool's configuration.
	atConfiguration int32
}

func count(nodes []*Assessment) counts {
	var c counts
	for _, a := range nodes {
		n := &a.Status
		c.total++
		if a.AtPoolConfiguration {
			c.atConfiguration++
		}
		updating := meta.FindStatusCondition(n.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		degraded := meta.IsStatusConditionTrue(n.Conditions, insightsv1alpha1.NodeProgressInsightDegraded)
		if meta.IsStatusConditionTrue(n.Conditions, insightsv1alpha1.NodeProgressInsightAvailable) {
			c.available++
		}
		if degraded {
			c.degraded++
		}
		if updating == nil {
			continue
		}
		switch updating.Reason {
		case insightsv1alpha1.NodeCompleted:
			c.updated++
		case insightsv1alpha1.NodePaused:
			c.excluded++
		case insightsv1alpha1.NodeDraining:
			c.draining++
		}
		// A degraded node is stuck, not progressing, even mid-drain.
		if updating.Status == metav1.ConditionTrue && !degraded {
			c.progressing++
		}
	}
	return c
}

// Pool computes a pool's insight status from the assessments of its nodes.
// previous is the pool's insight as last written, nil if none: it keeps the
// conditions' transition times.
func Pool(pool *machineconfigurationv1.MachineConfigPool, nodes []*Assessment, image *PoolImage,
	previous *insightsv1alpha1.MachineConfigPoolProgressInsightStatus, now time.Time) insightsv1alpha1.MachineConfigPoolProgressInsightStatus {
	c := count(nodes)
	outdated := c.total - c.updated

	status := insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
		Name:              pool.Name,
		ScopeType:         ScopeType(pool.Name),
		CompletionPercent: 100,
		Summaries: []insightsv1alpha1.NodeSummary{
			{Type: insightsv1alpha1.NodesTotal, Count: c.total},
			{Type: insightsv1alpha1.NodesAvailable, Count: c.available},
			{Type: insightsv1alpha1.NodesProgressing, Count: c.progressing},
			{Type: insightsv1alpha1.NodesOutdated, Count: outdated},
			{Type: insightsv1alpha1.NodesDraining, Count: c.draining},
			{Type: insightsv1alpha1.NodesExcluded, Count: c.excluded},
			{Type: insightsv1alpha1.NodesDegraded, Count: c.degraded},
		},
	}
	if c.total > 0 {
		// Floored, like the control plane's: 100% only when every node is.
		status.CompletionPercent = c.updated * 100 / c.total
	}

	updating := metav1.Condition{Type: insightsv1alpha1.MachineConfigPoolProgressInsightUpdating, Status: metav1.ConditionFalse}
	switch {
	case outdated == 0 && c.atConfiguration < c.total && !pool.Spec.Paused && pool.Spec.Configuration.Name != "":
		// Updated, as far as any update goes: draining and rebooting nodes
		// here are explained, not counted as an update's progress. A pool
		// the machine-config controller has not yet given a configuration
		// has nothing to roll out.
		updating.Reason = insightsv1alpha1.MachineConfigPoolRollingOutConfiguration
		updating.Message = fmt.Sprintf("Rolling out configuration %s, not an update: %d of %d nodes done",
			pool.Spec.Configuration.Name, c.atConfiguration, c.total)
	case outdated == 0:
		updating.Reason, updating.Message = PoolReasonCompleted, fmt.Sprintf("All %d nodes are updated", c.total)
	case pool.Spec.Paused && c.progressing == 0:
		updating.Reason, updating.Message = PoolReasonPaused, fmt.Sprintf("The pool is paused; %d of %d nodes are outdated and will not be updated", outdated, c.total)
	case image.blocking() && c.progressing == 0:
		// The node controller stops the pool's update on a failed or
		// interrupted build (pkg/controller/node/status.go,
		// calculateStatus: Updating False "Pool update stopped due to OS
		// image build failure"), and the build controller retries
		// neither.
		updating.Reason = PoolReasonImageBuildStopped
		updating.Message = fmt.Sprintf("%d of %d nodes are updated; the rest wait on the pool's OS image: %s", c.updated, c.total, image.status.Message)
	case image.building() && c.progressing == 0:
		// While it builds the node controller reports the pool Updating
		// ("Pool is waiting for OS image build to complete"): the update
		// progresses, on the build.
		updating.Status, updating.Reason = metav1.ConditionTrue, PoolReasonBuildingImage
		updating.Message = fmt.Sprintf("%d of %d nodes are updated; the rest wait on the pool's OS image: %s", c.updated, c.total, image.status.Message)
	case image.built() && c.progressing == 0 && !pool.Spec.Paused:
		// Built, before the node controller has given a node the
		// configuration and the image: it reports the pool Updating ("Pool
		// is waiting for nodes to apply OS image"), and the update goes on
		// without pause from the build to the nodes.
		updating.Status, updating.Reason = metav1.ConditionTrue, PoolReasonProgressing
		updating.Message = fmt.Sprintf("%d of %d nodes are updated; the pool's OS image is built, and its nodes are to take it: %s", c.updated, c.total, image.status.Message)
	case c.progressing > 0 || c.updated > 0 || c.degraded > 0:
		updating.Status, updating.Reason = metav1.ConditionTrue, PoolReasonProgressing
		updating.Message = fmt.Sprintf("%d of %d nodes are updated, %d are updating", c.updated, c.total, c.progressing)
	default:
		updating.Reason, updating.Message = PoolReasonPending, fmt.Sprintf("None of the %d nodes has started to update", c.total)
	}

	healthy := metav1.Condition{Type: insightsv1alpha1.MachineConfigPoolProgressInsightHealthy, Status: metav1.ConditionTrue,
		Reason: insightsv1alpha1.NodeAsExpected, Message: "No node is degraded"}
	buildStopped := outdated > 0 && image.blocking()
	switch {
	case c.degraded > 0:
		healthy.Status, healthy.Reason = metav1.ConditionFalse, PoolReasonNodesDegraded
		healthy.Message = fmt.Sprintf("%d of %d nodes are degraded", c.degraded, c.total)
	case buildStopped:
		healthy.Status, healthy.Reason = metav1.ConditionFalse, PoolReasonImageBuildStopped
		healthy.Message = image.status.Message
	}

	switch {
	case c.degraded > 0 || buildStopped && !pool.Spec.Paused:
		status.Assessment = insightsv1alpha1.PoolDegraded
	case pool.Spec.Paused && outdated > 0:
		status.Assessment = insightsv1alpha1.PoolExcluded
	case outdated == 0:
		status.Assessment = insightsv1alpha1.PoolCompleted
	case updating.Status == metav1.ConditionTrue:
		status.Assessment = insightsv1alpha1.PoolProgressing
	default:
		status.Assessment = insightsv1alpha1.PoolPending
	}

	if image != nil {
		status.ImageBuild = image.status
	}

	var previousConditions []metav1.Condition
	if previous != nil {
		previousConditions = previous.Conditions
	}
	for _, cond := range []metav1.Condition{updating, healthy} {
		cond.LastTransitionTime = metav1.NewTime(now)
		if p := meta.FindStatusCondition(previousConditions, cond.Type); p != nil && p.Status == cond.Status {
			cond.LastTransitionTime = p.LastTransitionTime
		}
		status.Conditions = append(status.Conditions, cond)
	}
	return status
}
