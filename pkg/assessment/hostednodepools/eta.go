package hostednodepools

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// maxETA bounds an estimate: past it, a rollout is not being estimated but
// extrapolated from too little.
const maxETA = 30 * 24 * time.Hour

// estimate is when the rollout should complete: the machines left, in
// waves as wide as the rollout's parallelism, each taking PerMachine; else
// at the rate this rollout has updated machines since it started; none when
// neither is known.
func estimate(in Input, st insightsv1alpha1.NodePoolProgressInsightStatus, c count) *metav1.Time {
	if st.Assessment != insightsv1alpha1.PoolProgressing || !c.known {
		return nil
	}
	left := int64(st.Machines.Desired - st.Machines.Updated)
	if left <= 0 {
		return nil
	}
	var eta time.Duration
	switch {
	case in.PerMachine > 0:
		wide := int64(parallelism(in, st.Machines.Desired))
		eta = time.Duration((left + wide - 1) / wide * int64(in.PerMachine))
	case st.StartedAt != nil && st.Machines.Updated > 0 && in.Now.After(st.StartedAt.Time):
		elapsed := in.Now.Sub(st.StartedAt.Time)
		eta = time.Duration(float64(elapsed) / float64(st.Machines.Updated) * float64(left))
	default:
		return nil
	}
	if eta <= 0 || eta > maxETA {
		return nil
	}
	return &metav1.Time{Time: in.Now.Add(eta)}
}

// parallelism is how many machines the rollout updates at once: a
// MachineDeployment creates up to maxSurge new Machines and deletes up to
// maxUnavailable old ones ahead of them (cluster-api core/reconcilers/
// machinedeployment/mdutil/util.go MaxSurge, MaxUnavailable,
// ResolveFenceposts: maxSurge rounds up, maxUnavailable down, 1 and 0 when
// unset, machinedeployment_types.go), the
// in-place upgrader updates up to the NodePool's maxUnavailable nodes
// (hypershift-operator/controllers/nodepool/capi.go getInPlaceMaxUnavailable,
// 1 when unset).
func parallelism(in Input, desired int32) int {
	np := in.NodePool
	if np.Spec.Management.UpgradeType == hypershift.UpgradeTypeInPlace {
		var mu *intstr.IntOrString
		if np.Spec.Management.InPlace != nil {
			mu = np.Spec.Management.InPlace.MaxUnavailable
		}
		return max(scaled(mu, desired, false, 1), 1)
	}
	surge, unavailable := (*intstr.IntOrString)(nil), (*intstr.IntOrString)(nil)
	if md := in.MachineDeployment; md != nil {
		surge, unavailable = md.Spec.Rollout.Strategy.RollingUpdate.MaxSurge, md.Spec.Rollout.Strategy.RollingUpdate.MaxUnavailable
	} else if r := np.Spec.Management.Replace; r != nil && r.RollingUpdate != nil {
		surge, unavailable = r.RollingUpdate.MaxSurge, r.RollingUpdate.MaxUnavailable
	}
	return max(scaled(surge, desired, true, 1)+scaled(unavailable, desired, false, 0), 1)
}

// scaled is an absolute number or a percentage of desired, as
// intstr.GetScaledValueFromIntOrPercent rounds it; def when unset or not
// a number.
func scaled(v *intstr.IntOrString, desired int32, roundUp bool, def int) int {
	if v == nil {
		return def
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, int(desired), roundUp)
	if err != nil || n < 0 || n > int(desired)+1 {
		return def
	}
	return n
}
