package main

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strconv"

	"github.com/blang/semver/v4"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The conditional update risk the completed cluster is offered its next
// release with, which the pre-checks walkthrough accepts.
const (
	demoRiskName    = "DemoEtcdSlowDisk"
	demoRiskMessage = "On slow disks, etcd may lose its leader repeatedly while the control plane nodes reboot, leaving the API unavailable for minutes."
	// walkthroughURL is the risk's documentation: the walkthrough that
	// accepts it.
	walkthroughURL = "https://github.com/update-insights/update-insights-operator/blob/main/docs/administrators.md#pre-checks-walkthrough"
)

// offers are the releases the completed cluster is offered, as the
// cluster-version operator would list them after asking the update
// service: the recorded ClusterVersion, taken mid-update, offers none.
// They are made up for the walkthrough: next, the release after the
// target, as a conditional update whose risk applies to every cluster,
// and the release after that and the first release of the next minor
// version as recommended updates. Their images are made-up digests, never
// pulled: nothing here runs a release.
type offers struct {
	next, recommended, minor configv1.Release
}

// newOffers derives the offered releases from the recorded target, whose
// last number next and recommended increment, and whose minor version
// minor does: 4.15.0-ec.2 is followed by 4.15.0-ec.3 and 4.15.0-ec.4, and
// by 4.16.0.
func newOffers(target, channel string) (offers, error) {
	next, err := followingVersion(target)
	if err != nil {
		return offers{}, err
	}
	recommended, err := followingVersion(next)
	if err != nil {
		return offers{}, err
	}
	minor, err := nextMinorVersion(target)
	if err != nil {
		return offers{}, err
	}
	return offers{next: madeUpRelease(next, channel), recommended: madeUpRelease(recommended, channel), minor: madeUpRelease(minor, channel)}, nil
}

// nextMinorVersion is the first release of the minor version after v's:
// the target of a minor update, which OLM's operators may block.
func nextMinorVersion(v string) (string, error) {
	parsed, err := semver.ParseTolerant(v)
	if err != nil {
		return "", fmt.Errorf("version %q: %w", v, err)
	}
	return fmt.Sprintf("%d.%d.0", parsed.Major, parsed.Minor+1), nil
}

var lastNumber = regexp.MustCompile(`[0-9]+$`)

func followingVersion(v string) (string, error) {
	loc := lastNumber.FindStringIndex(v)
	if loc == nil {
		return "", fmt.Errorf("version %q does not end with a number to increment", v)
	}
	n, err := strconv.Atoi(v[loc[0]:])
	if err != nil {
		return "", err
	}
	return v[:loc[0]] + strconv.Itoa(n+1), nil
}

func madeUpRelease(version, channel string) configv1.Release {
	r := configv1.Release{
		Version: version,
		Image:   fmt.Sprintf("quay.io/openshift-release-dev/ocp-release@sha256:%x", sha256.Sum256([]byte("run-local "+version))),
	}
	if channel != "" {
		r.Channels = []string{channel}
	}
	return r
}

// apply writes the offers into a ClusterVersion's status.
func (o offers) apply(status *configv1.ClusterVersionStatus) {
	now := metav1.Now()
	status.AvailableUpdates = []configv1.Release{o.recommended, o.minor}
	status.ConditionalUpdates = []configv1.ConditionalUpdate{{
		Release: o.next,
		Risks: []configv1.ConditionalUpdateRisk{{
			Name:          demoRiskName,
			Message:       demoRiskMessage,
			URL:           walkthroughURL,
			MatchingRules: []configv1.ClusterCondition{{Type: "Always"}},
		}},
		Conditions: []metav1.Condition{{
			Type:               "Recommended",
			Status:             metav1.ConditionFalse,
			Reason:             demoRiskName,
			Message:            demoRiskMessage + " " + walkthroughURL,
			LastTransitionTime: now,
		}},
	}}
}
