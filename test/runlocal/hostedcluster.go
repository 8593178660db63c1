package main

import (
	"context"
	"fmt"
	"slices"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// hostedRecording is the recorded cluster whose ClusterVersion and real
// ClusterOperators the hosted mode starts from: its CVO status, idle at the
// version its recorded update started from, with spec.desiredUpdate reset as
// HyperShift resets it.
const hostedRecording = "test/testdata/oc-examples/4.16.0-compact"

// release is what a node of an OpenShift release reports, and the
// Kubernetes version its control plane runs.
type release struct {
	version    string
	kubernetes string
	// kubelet and osImage are the node's status.nodeInfo.kubeletVersion
	// and osImage.
	kubelet, osImage string
}

// The releases the hosted mode plays. The recording's: 4.16's from its
// nodes (test/testdata/oc-examples/4.16.0-compact-node.yaml), 4.17.0-ec.0's
// Kubernetes version from its kube-apiserver ClusterOperator's operand. The
// build suffixes of 4.17.0-ec.0's kubelet and the OS images of 4.17.0-ec.0
// and 4.14.0 have the recorded shape; the operator reads the Kubernetes
// version before the suffix, and nothing of the OS image. 4.14.0's kubelet
// is v1.27.6+f67aeb3, what `oc version` reports as its Kubernetes version.
var (
	from4_16 = release{version: "4.16.0-0.nightly-2024-08-01-082745", kubernetes: "1.29.6",
		kubelet: "v1.29.6+aba1e8d", osImage: "Red Hat Enterprise Linux CoreOS 416.94.202407251849-0"}
	to4_17 = release{version: "4.17.0-ec.0", kubernetes: "1.30.1",
		kubelet: "v1.30.1+a6e7c0b", osImage: "Red Hat Enterprise Linux CoreOS 417.94.202407301548-0"}
	// old4_14 is HyperShift's oldest supported release
	// (support/supportedversion/version.go, MinSupportedVersion): three
	// minors behind 4.17, the most a NodePool may lag (ValidateVersionSkew).
	old4_14 = release{version: "4.14.0", kubernetes: "1.27.6",
		kubelet: "v1.27.6+f67aeb3", osImage: "Red Hat Enterprise Linux CoreOS 414.92.202310170514-0"}
)

// hostedOperators are the ClusterOperators a hosted cluster has: those of
// `oc get co` on a hosted cluster in HyperShift's documentation
// (docs/content/how-to/none/create-none-cluster.md), and insights, whose
// capability test/e2e/util/util.go checks the same way as console's,
// image-registry's, ingress', node-tuning's and openshift-samples'. The
// hosted cluster has no etcd, machine-config, machine-api, marketplace or
// authentication ClusterOperator: their operators run on the management
// cluster or not at all.
var hostedOperators = []string{
	"console", "csi-snapshot-controller", "dns", "image-registry", "ingress", "insights",
	"kube-apiserver", "kube-controller-manager", "kube-scheduler", "kube-storage-version-migrator",
	"monitoring", "network", "node-tuning", "openshift-apiserver", "openshift-controller-manager",
	"openshift-samples", "operator-lifecycle-manager", "operator-lifecycle-manager-catalog",
	"operator-lifecycle-manager-packageserver", "service-ca", "storage",
}

// selfCreated are the ClusterOperators whose operators create them, with a
// name only, because HyperShift leaves their manifest
// (0000_50_olm_99-operatorstatus.yaml) out of the payload
// (control-plane-operator/controllers/hostedcontrolplane/v2/cvo/deployment.go,
// manifestsToOmit); OLM creates its ClusterOperator when it finds none
// (operator-lifecycle-manager's pkg/lib/operatorstatus/status.go). They carry
// no include annotation.
var selfCreated = []string{"operator-lifecycle-manager", "operator-lifecycle-manager-catalog"}

// hostedScenario turns the recorded cluster into a hosted cluster idle at
// from: the ClusterVersion as the hosted-cluster-config-operator leaves it
// (control-plane-operator/hostedclusterconfigoperator/controllers/resources/
// resources.go, reconcileClusterVersion: desiredUpdate reset to nil, the
// capabilities as the HostedControlPlane's with the baseline None), the
// real ClusterOperators of a hosted cluster, and the six synthetic ones as
// that operator writes them at from.
func hostedScenario(s *scenario, from release) error {
	if err := s.idle(); err != nil {
		return err
	}
	if v := s.from(); v != from.version {
		return fmt.Errorf("the recording updates from %s, and the hosted mode plays %s", v, from.version)
	}
	s.cv.Spec.DesiredUpdate = nil
	releaseAccepted(&s.cv.Status, s.cv.Status.Desired)
	s.cv.Spec.Capabilities = &configv1.ClusterVersionCapabilitiesSpec{
		BaselineCapabilitySet:         configv1.ClusterVersionCapabilitySetNone,
		AdditionalEnabledCapabilities: slices.Clone(s.cv.Status.Capabilities.EnabledCapabilities),
	}
	var operators []*configv1.ClusterOperator
	for _, co := range s.operators {
		switch {
		case !slices.Contains(hostedOperators, co.Name):
		case hosted.IsSynthetic(hosted.Hosted, co.Name):
			operators = append(operators, syntheticOperator(co.Name, from, metav1.Now()))
		default:
			if slices.Contains(selfCreated, co.Name) {
				co.Annotations = nil
			}
			operators = append(operators, co)
		}
	}
	if len(operators) != len(hostedOperators) {
		return fmt.Errorf("the recording has %d of the %d ClusterOperators of a hosted cluster", len(operators), len(hostedOperators))
	}
	s.operators = operators
	s.nodes = &recordedNodes{}
	return nil
}

// syntheticOperator is a ClusterOperator as the hosted-cluster-config-
// operator running release r writes it
// (control-plane-operator/hostedclusterconfigoperator/controllers/resources/
// clusteroperators.go, reconcileClusterOperators): a name only, versions
// per its VersionMapping from the operator's release and Kubernetes versions
// in the order of their names, and the four conditions AsExpected and
// nothing else.
func syntheticOperator(name string, r release, now metav1.Time) *configv1.ClusterOperator {
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: name}}
	co.Status.Versions = syntheticVersions(name, r)
	for _, c := range []struct {
		t configv1.ClusterStatusConditionType
		s configv1.ConditionStatus
	}{
		{configv1.OperatorAvailable, configv1.ConditionTrue},
		{configv1.OperatorProgressing, configv1.ConditionFalse},
		{configv1.OperatorDegraded, configv1.ConditionFalse},
		{configv1.OperatorUpgradeable, configv1.ConditionTrue},
	} {
		co.Status.Conditions = append(co.Status.Conditions, configv1.ClusterOperatorStatusCondition{
			Type: c.t, Status: c.s, LastTransitionTime: now, Reason: asExpectedReason,
		})
	}
	return co
}

// syntheticVersions are a synthetic ClusterOperator's versions at r.
func syntheticVersions(name string, r release) []configv1.OperandVersion {
	mapping := syntheticOperators[name]
	keys := make([]string, 0, len(mapping))
	for k := range mapping {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var versions []configv1.OperandVersion
	for _, k := range keys {
		v := r.version
		if mapping[k] == "kubernetes" {
			v = r.kubernetes
		}
		versions = append(versions, configv1.OperandVersion{Name: k, Version: v})
	}
	return versions
}

// flipSynthetic writes the synthetic ClusterOperators as the hosted-cluster-
// config-operator running r does: all of them, as soon as its pod runs r.
// Their conditions stay as they were (clusterOperatorStatus keeps a
// condition's transition time when its status and reason did not change).
func flipSynthetic(ctx context.Context, c *clients, r release) error {
	for _, name := range syntheticNames() {
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			co, err := c.config.ConfigV1().ClusterOperators().Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			co.Status.Versions = syntheticVersions(name, r)
			_, err = c.config.ConfigV1().ClusterOperators().UpdateStatus(ctx, co, metav1.UpdateOptions{})
			return err
		}); err != nil {
			return fmt.Errorf("writing ClusterOperator %s: %w", name, err)
		}
	}
	return nil
}

func syntheticNames() []string {
	var out []string
	for name := range syntheticOperators {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// infrastructure is the Infrastructure "cluster" as HyperShift's
// ReconcileInfrastructure (support/globalconfig/infrastructure.go) writes it
// for an AWS HostedControlPlane: the control plane's topology External.
func infrastructure(name, region string) *configv1.Infrastructure {
	infra := &configv1.Infrastructure{ObjectMeta: metav1.ObjectMeta{Name: names.Infrastructure}}
	infra.Spec.PlatformSpec = configv1.PlatformSpec{Type: configv1.AWSPlatformType, AWS: &configv1.AWSPlatformSpec{}}
	endpoint := fmt.Sprintf("https://api.%s.example.com:443", name)
	infra.Status = configv1.InfrastructureStatus{
		InfrastructureName:     name + "-4xq7b",
		Platform:               configv1.AWSPlatformType,
		PlatformStatus:         &configv1.PlatformStatus{Type: configv1.AWSPlatformType, AWS: &configv1.AWSPlatformStatus{Region: region, ResourceTags: []configv1.AWSResourceTag{}}},
		EtcdDiscoveryDomain:    name + ".example.com",
		APIServerURL:           endpoint,
		APIServerInternalURL:   endpoint,
		ControlPlaneTopology:   configv1.ExternalTopologyMode,
		InfrastructureTopology: configv1.HighlyAvailableTopologyMode,
	}
	return infra
}

// createInfrastructure writes the Infrastructure: its metadata and spec,
// then its status.
func createInfrastructure(ctx context.Context, c *clients, infra *configv1.Infrastructure) error {
	created, err := c.config.ConfigV1().Infrastructures().Create(ctx, &configv1.Infrastructure{ObjectMeta: infra.ObjectMeta, Spec: infra.Spec}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating Infrastructure %s: %w", infra.Name, err)
	}
	created.Status = infra.Status
	if _, err := c.config.ConfigV1().Infrastructures().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing Infrastructure %s status: %w", infra.Name, err)
	}
	return nil
}

// startHostedUpdate starts the control plane's update to to as the guest
// sees it: nothing writes the ClusterVersion's spec (HyperShift updates
// the control plane from HostedCluster.spec.release on the management
// cluster, and its CVO, started on the new release, reports it), so only
// the CVO's status changes: the desired release, a partial history entry,
// and Progressing.
func (s *scenario) startHostedUpdate(ctx context.Context, c *clients) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cv, err := c.config.ConfigV1().ClusterVersions().Get(ctx, s.cv.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cv.Spec.DesiredUpdate != nil {
			return fmt.Errorf("the ClusterVersion has a desiredUpdate, which the hosted-cluster-config-operator resets")
		}
		cv.Status.Desired = s.to
		releaseAccepted(&cv.Status, s.to)
		cv.Status.History = append([]configv1.UpdateHistory{{
			State: configv1.PartialUpdate, StartedTime: metav1.Now(), Version: s.to.Version, Image: s.to.Image, Verified: true,
		}}, cv.Status.History...)
		setCVCondition(&cv.Status, configv1.ConditionTrue, "Working towards "+s.to.Version)
		_, err = c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{})
		return err
	})
}
