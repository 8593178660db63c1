package nodes

import (
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// estimateRefresh is how often a node in progress is looked at again by the
// clock alone: its estimate counts down in whole minutes.
const estimateRefresh = time.Minute

// Assess assesses a node's update: the desired status of its insight (with
// what its pool needs to know), the health insights the node controller
// owns for it, and when either would next change by the passage of time
// alone (the estimate's countdown, a health threshold expiring; zero for
// never).
func Assess(in Input) (Assessment, []health.Insight, time.Time) {
	a := NodeProgress(in)
	insights, next := health.ForNode(&a.Status, &a.NodeState, in.Now)
	if a.Status.EstimatedToComplete != nil {
		if refresh := in.Now.Add(estimateRefresh); next.IsZero() || refresh.Before(next) {
			next = refresh
		}
	}
	return a, insights, next
}

// AssessPool assesses a pool's update from the assessments of its nodes and,
// for an image-mode pool, its OS image build (nil for any other pool): the
// desired status of its insight, the health insights the node controller
// owns for it, and when they would next change by the passage of time alone
// (zero for never). previous is the pool's insight as last written, nil if
// none.
func AssessPool(pool *machineconfigurationv1.MachineConfigPool, nodes []*Assessment, image *PoolImage,
	previous *insightsv1alpha1.MachineConfigPoolProgressInsightStatus, now time.Time) (insightsv1alpha1.MachineConfigPoolProgressInsightStatus, []health.Insight, time.Time) {
	status := Pool(pool, nodes, image, previous, now)
	insights := health.ForPool(&status)
	if image == nil || !image.ForUpdate || status.Assessment == insightsv1alpha1.PoolCompleted {
		// A build that fails or drags before the update reaches the pool,
		// or once every node is updated, holds no update; the
		// machine-config operator's own conditions tell of it, and the
		// pre-checks warn of a failed one before an update.
		return status, insights, time.Time{}
	}
	build, next := health.ForImageBuild(imageBuildHealth(&status, image), now)
	if _, counting := image.Pool.Left(now); counting {
		// The build's estimate counts down in whole minutes.
		if refresh := now.Add(estimateRefresh); next.IsZero() || refresh.Before(next) {
			next = refresh
		}
	}
	return status, append(insights, build...), next
}

// imageBuildHealth is what the health insights of a pool's build read.
func imageBuildHealth(status *insightsv1alpha1.MachineConfigPoolProgressInsightStatus, image *PoolImage) health.ImageBuild {
	p := image.Pool
	longest, _ := p.Longest()
	return health.ImageBuild{
		Pool:              status,
		Build:             status.ImageBuild,
		Job:               p.JobName(),
		Namespace:         imagemode.Namespace,
		Pod:               image.Failure.Pod,
		Container:         image.Failure.Container,
		Words:             image.Failure.Words,
		PushSecret:        p.Config.Spec.RenderedImagePushSecret.Name,
		PushSpec:          string(p.Config.Spec.RenderedImagePushSpec),
		Longest:           longest,
		RebuildAnnotation: imagemode.RebuildAnnotation,
	}
}
