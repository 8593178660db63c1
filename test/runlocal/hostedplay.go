package main

import (
	"context"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// playControlPlane plays the hosted control plane's update to to: the CVO
// on the management cluster starts on the new release and reports it; the
// hosted-cluster-config-operator, rolled out with the control plane, runs
// the new release and flips the six synthetic ClusterOperators at once; the
// real operators update one by one; the ClusterVersion completes. show is
// called with "midway" once half the real operators have updated.
func (s *scenario) playControlPlane(ctx context.Context, c *clients, to release, step time.Duration, show showAt) error {
	say("HostedCluster.spec.release moves to %s on the management cluster: its CVO starts on it", to.version)
	if err := s.startHostedUpdate(ctx, c); err != nil {
		return err
	}
	if !sleep(ctx, step) {
		return nil
	}
	say("the hosted-cluster-config-operator runs %s: the synthetic ClusterOperators report %s and Kubernetes %s", to.version, to.version, to.kubernetes)
	if err := flipSynthetic(ctx, c, to); err != nil {
		return err
	}
	var pending []*configv1.ClusterOperator
	for _, co := range s.operators {
		if v, _ := controlplane.OperatorVersion(co); v != to.version && !hosted.IsSynthetic(hosted.Hosted, co.Name) {
			pending = append(pending, co)
		}
	}
	say("the real ClusterOperators update: %d, one every %s", len(pending), step)
	for i, co := range pending {
		if i == len(pending)/2 {
			if err := show("midway"); err != nil {
				return err
			}
		}
		// The CVO waits on the operators of its payload: OLM's, which
		// HyperShift's payload leaves out, it does not name.
		if controlplane.IsPayloadOperator(co) {
			if err := s.setProgressing(ctx, c, "waiting on "+co.Name); err != nil {
				return err
			}
		}
		if err := updateOperator(ctx, c, co.Name, func(status *configv1.ClusterOperatorStatus) {
			setCondition(status, configv1.OperatorProgressing, configv1.ConditionTrue, "Working towards "+to.version)
		}); err != nil {
			return err
		}
		if !sleep(ctx, step/2) {
			return nil
		}
		if err := updateOperator(ctx, c, co.Name, func(status *configv1.ClusterOperatorStatus) {
			setCondition(status, configv1.OperatorProgressing, configv1.ConditionFalse, "Updated to "+to.version)
			setVersion(status, to.version)
		}); err != nil {
			return err
		}
		if !sleep(ctx, step/2) {
			return nil
		}
	}
	say("the ClusterVersion reports the update completed")
	return s.completeHosted(ctx, c)
}

// completeHosted marks the update completed as the CVO does: the history
// entry Completed, Available "Done applying", Progressing False. No
// update is offered: the recording's ClusterVersion has no channel.
func (s *scenario) completeHosted(ctx context.Context, c *clients) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cv, err := c.config.ConfigV1().ClusterVersions().Get(ctx, s.cv.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		cv.Status.History[0].State = configv1.CompletedUpdate
		cv.Status.History[0].CompletionTime = &now
		setCVCondition(&cv.Status, configv1.ConditionFalse, "Cluster version is "+s.target())
		cv.Status.Conditions = withCondition(cv.Status.Conditions, configv1.OperatorAvailable, configv1.ConditionTrue, "Done applying "+s.target())
		_, err = c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{})
		return err
	})
}

// releaseAccepted says which payload the CVO loaded, as its ReleaseAccepted
// condition does.
func releaseAccepted(status *configv1.ClusterVersionStatus, r configv1.Release) {
	for i := range status.Conditions {
		if status.Conditions[i].Type == "ReleaseAccepted" {
			status.Conditions[i].Message = `Payload loaded version="` + r.Version + `" image="` + r.Image + `" architecture="amd64"`
		}
	}
}
