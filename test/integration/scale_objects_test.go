package integration

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// The phases of the cluster's nodes in its update.
type scalePhase int

const (
	// scalePending nodes are at the old configuration, Done, waiting.
	scalePending scalePhase = iota
	// scaleUpdated nodes are at the new configuration.
	scaleUpdated
	// scaleDraining nodes are cordoned for their update.
	scaleDraining
)

// scalePhaseOf says where node i is: a tenth updated, a few draining, the
// rest waiting.
func scalePhaseOf(i int) scalePhase {
	switch {
	case i%10 == 0:
		return scaleUpdated
	case i%250 == 1:
		return scaleDraining
	}
	return scalePending
}

// scaleNodeName is the name AWS gives node i: its private DNS name.
func scaleNodeName(i int) string {
	return fmt.Sprintf("ip-10-0-%d-%d.us-east-2.compute.internal", i/250, i%250+4)
}

// scaleNode is worker node i, in phase, as a 4.15 cluster on AWS with
// OVN-Kubernetes has it: the labels, annotations and status its kubelet,
// the network and the machine-config daemon give it.
func scaleNode(i int, phase scalePhase, images []corev1.ContainerImage, heartbeat metav1.Time) *corev1.Node {
	name := scaleNodeName(i)
	hostname := strings.SplitN(name, ".", 2)[0]
	ip := fmt.Sprintf("10.0.%d.%d", i/250, i%250+4)
	zone := "us-east-2" + string(rune('a'+i%3))
	instanceID := fmt.Sprintf("i-0%016x", 0x3c6f1a2b4d5e0000+i)
	mac := fmt.Sprintf("02:5e:%02x:%02x:%02x:%02x", i>>16&0xff, i>>8&0xff, i&0xff, i*7&0xff)

	current, desired, state := scaleOldWorkerConfig, scaleOldWorkerConfig, "Done"
	desiredDrain, lastAppliedDrain := "uncordon-"+scaleOldWorkerConfig, "uncordon-"+scaleOldWorkerConfig
	kubelet := "v1.28.7+f1b5f6c"
	var taints []corev1.Taint
	unschedulable := false
	switch phase {
	case scaleUpdated:
		current, desired = scaleNewWorkerConfig, scaleNewWorkerConfig
		desiredDrain, lastAppliedDrain = "uncordon-"+scaleNewWorkerConfig, "uncordon-"+scaleNewWorkerConfig
		kubelet = "v1.29.5+58452f8"
	case scaleDraining:
		desired, state = scaleNewWorkerConfig, "Working"
		desiredDrain = "drain-" + scaleNewWorkerConfig
		unschedulable = true
		taints = []corev1.Taint{{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule, TimeAdded: &heartbeat}}
	}

	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: name,
			Labels: map[string]string{
				"beta.kubernetes.io/arch":                  "amd64",
				"beta.kubernetes.io/instance-type":         "m6i.xlarge",
				"beta.kubernetes.io/os":                    "linux",
				"failure-domain.beta.kubernetes.io/region": "us-east-2",
				"failure-domain.beta.kubernetes.io/zone":   zone,
				"kubernetes.io/arch":                       "amd64",
				"kubernetes.io/hostname":                   hostname,
				"kubernetes.io/os":                         "linux",
				"node-role.kubernetes.io/worker":           "",
				"node.kubernetes.io/instance-type":         "m6i.xlarge",
				"node.openshift.io/os_id":                  "rhcos",
				"topology.ebs.csi.aws.com/zone":            zone,
				"topology.kubernetes.io/region":            "us-east-2",
				"topology.kubernetes.io/zone":              zone,
			},
			Annotations: map[string]string{
				"cloud.network.openshift.io/egress-ipconfig":                                  fmt.Sprintf(`[{"interface":"eni-0%016x","ifaddr":{"ipv4":"10.0.0.0/19"},"capacity":{"ipv4":14,"ipv6":15}}]`, 0x7a1e0000+i),
				"csi.volume.kubernetes.io/nodeid":                                             fmt.Sprintf(`{"ebs.csi.aws.com":%q}`, instanceID),
				"k8s.ovn.org/host-cidrs":                                                      fmt.Sprintf(`[%q]`, ip+"/19"),
				"k8s.ovn.org/l3-gateway-config":                                               fmt.Sprintf(`{"default":{"mode":"shared","bridge-id":"br-ex","interface-id":"br-ex_%s","mac-address":%q,"ip-addresses":["%s/19"],"ip-address":"%s/19","next-hops":["10.0.0.1"],"next-hop":"10.0.0.1","node-port-enable":"true","vlan-id":"0"}}`, name, mac, ip, ip),
				"k8s.ovn.org/node-chassis-id":                                                 fmt.Sprintf("%08x-4b1e-4f0a-9c3d-%012x", i, 0x5e0c00000000+i),
				"k8s.ovn.org/node-gateway-router-lrp-ifaddrs":                                 fmt.Sprintf(`{"default":{"ipv4":"100.64.%d.%d/16"}}`, i/250, i%250+4),
				"k8s.ovn.org/node-id":                                                         fmt.Sprint(i + 4),
				"k8s.ovn.org/node-masquerade-subnet":                                          `{"ipv4":"169.254.169.0/29","ipv6":"fd69::/125"}`,
				"k8s.ovn.org/node-primary-ifaddr":                                             fmt.Sprintf(`{"ipv4":"%s/19"}`, ip),
				"k8s.ovn.org/node-subnets":                                                    fmt.Sprintf(`{"default":["10.%d.%d.0/23"]}`, 128+i/128, i%128*2),
				"k8s.ovn.org/node-transit-switch-port-ifaddr":                                 fmt.Sprintf(`{"ipv4":"100.88.%d.%d/16"}`, i/250, i%250+4),
				"k8s.ovn.org/remote-zone-migrated":                                            name,
				"k8s.ovn.org/zone-name":                                                       name,
				"machine.openshift.io/machine":                                                fmt.Sprintf("openshift-machine-api/scale-x7k2p-worker-%s-%05x", zone, i),
				"machineconfiguration.openshift.io/controlPlaneTopology":                      "HighlyAvailable",
				nodes.CurrentConfigAnnotation:                                                 current,
				nodes.DesiredConfigAnnotation:                                                 desired,
				nodes.DesiredDrainAnnotation:                                                  desiredDrain,
				nodes.LastAppliedDrainAnnotation:                                              lastAppliedDrain,
				"machineconfiguration.openshift.io/lastObservedServerCAAnnotation":            "false",
				"machineconfiguration.openshift.io/lastSyncedControllerConfigResourceVersion": "48231",
				nodes.ReasonAnnotation:                                                        "",
				nodes.StateAnnotation:                                                         state,
				"volumes.kubernetes.io/controller-managed-attach-detach":                      "true",
			},
		},
		Spec: corev1.NodeSpec{
			ProviderID:    fmt.Sprintf("aws:///%s/%s", zone, instanceID),
			Unschedulable: unschedulable,
			Taints:        taints,
		},
		Status: corev1.NodeStatus{
			Capacity: corev1.ResourceList{
				corev1.ResourceCPU:              resource.MustParse("4"),
				corev1.ResourceEphemeralStorage: resource.MustParse("125293548Ki"),
				"hugepages-1Gi":                 resource.MustParse("0"),
				"hugepages-2Mi":                 resource.MustParse("0"),
				corev1.ResourceMemory:           resource.MustParse("16076056Ki"),
				corev1.ResourcePods:             resource.MustParse("250"),
			},
			Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:              resource.MustParse("3500m"),
				corev1.ResourceEphemeralStorage: resource.MustParse("114396791822"),
				"hugepages-1Gi":                 resource.MustParse("0"),
				"hugepages-2Mi":                 resource.MustParse("0"),
				corev1.ResourceMemory:           resource.MustParse("14925080Ki"),
				corev1.ResourcePods:             resource.MustParse("250"),
			},
			Conditions: scaleNodeConditions(metav1.NewTime(heartbeat.Add(-72*time.Hour)), heartbeat),
			Addresses: []corev1.NodeAddress{
				{Type: corev1.NodeInternalIP, Address: ip},
				{Type: corev1.NodeHostName, Address: name},
				{Type: corev1.NodeInternalDNS, Address: name},
			},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
			NodeInfo: corev1.NodeSystemInfo{
				MachineID:               fmt.Sprintf("ec2%029x", i),
				SystemUUID:              fmt.Sprintf("ec2%05x-5d1c-7e3a-9b2f-0c4d6e8fa1b3", i),
				BootID:                  fmt.Sprintf("%08x-9d3e-4c1b-a7f2-5e6d8c0b1a29", i),
				KernelVersion:           "5.14.0-284.59.1.el9_2.x86_64",
				OSImage:                 "Red Hat Enterprise Linux CoreOS 415.92.202403191241-0 (Plow)",
				ContainerRuntimeVersion: "cri-o://1.28.4-8.rhaos4.15.git24f50b9.el9",
				KubeletVersion:          kubelet,
				KubeProxyVersion:        kubelet,
				OperatingSystem:         "linux",
				Architecture:            "amd64",
			},
			Images: images,
		},
	}
}

// scaleNodeConditions are the conditions of a healthy node, with the
// heartbeat the kubelet renews every few seconds.
func scaleNodeConditions(since, heartbeat metav1.Time) []corev1.NodeCondition {
	condition := func(t corev1.NodeConditionType, status corev1.ConditionStatus, reason, message string) corev1.NodeCondition {
		return corev1.NodeCondition{Type: t, Status: status, Reason: reason, Message: message, LastHeartbeatTime: heartbeat, LastTransitionTime: since}
	}
	return []corev1.NodeCondition{
		condition(corev1.NodeNetworkUnavailable, corev1.ConditionFalse, "RouteCreated", "ovn-kubernetes cleared kubelet-set NoRouteCreated"),
		condition(corev1.NodeMemoryPressure, corev1.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
		condition(corev1.NodeDiskPressure, corev1.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
		condition(corev1.NodePIDPressure, corev1.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
		condition(corev1.NodeReady, corev1.ConditionTrue, "KubeletReady", "kubelet is posting ready status"),
	}
}

// scaleImages are the 50 images a busy worker has pulled: the release's
// images by digest, and workloads' by digest and tag.
func scaleImages() []corev1.ContainerImage {
	images := make([]corev1.ContainerImage, 50)
	for i := range images {
		digest := fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(fmt.Sprint("image ", i))))
		names := []string{"quay.io/openshift-release-dev/ocp-v4.0-art-dev@" + digest}
		if i%3 == 0 {
			repository := fmt.Sprintf("image-registry.openshift-image-registry.svc:5000/team-%02d/service-%02d", i%7, i)
			names = []string{repository + "@" + digest, fmt.Sprintf("%s:v1.%d.%d", repository, i%4, i)}
		}
		images[i] = corev1.ContainerImage{Names: names, SizeBytes: int64(150+i*37%900) << 20}
	}
	return images
}

func scalePool(name, config string) *machineconfigurationv1.MachineConfigPool {
	return &machineconfigurationv1.MachineConfigPool{
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: map[string]string{"machineconfiguration.openshift.io/mco-built-in": "", "pools.operator.machineconfiguration.openshift.io/" + name: ""},
		},
		Spec: machineconfigurationv1.MachineConfigPoolSpec{
			MachineConfigSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"machineconfiguration.openshift.io/role": name}},
			NodeSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/" + name: ""}},
			Configuration:         scalePoolConfiguration(name, config),
		},
	}
}

func scalePoolConfiguration(pool, config string) machineconfigurationv1.MachineConfigPoolStatusConfiguration {
	c := machineconfigurationv1.MachineConfigPoolStatusConfiguration{
		ObjectReference: corev1.ObjectReference{Name: config},
	}
	for _, source := range []string{"00-", "01-%s-container-runtime", "01-%s-kubelet", "97-%s-generated-kubelet", "98-%s-generated-kubelet", "99-%s-generated-registries", "99-%s-ssh"} {
		if source == "00-" {
			source += pool
		} else {
			source = fmt.Sprintf(source, pool)
		}
		c.Source = append(c.Source, corev1.ObjectReference{APIVersion: "machineconfiguration.openshift.io/v1", Kind: "MachineConfig", Name: source})
	}
	return c
}

// scalePoolStatus is the machine-config controller's view of a pool in the
// middle of its update.
func scalePoolStatus(config string, machines, updated int) machineconfigurationv1.MachineConfigPoolStatus {
	since := metav1.NewTime(time.Now().Add(-20 * time.Minute).Truncate(time.Second))
	condition := func(t machineconfigurationv1.MachineConfigPoolConditionType, status corev1.ConditionStatus, message string) machineconfigurationv1.MachineConfigPoolCondition {
		return machineconfigurationv1.MachineConfigPoolCondition{Type: t, Status: status, Message: message, LastTransitionTime: since}
	}
	return machineconfigurationv1.MachineConfigPoolStatus{
		ObservedGeneration:  2,
		Configuration:       scalePoolConfiguration(nodes.WorkerPool, config),
		MachineCount:        int32(machines),
		UpdatedMachineCount: int32(updated),
		ReadyMachineCount:   int32(updated),
		Conditions: []machineconfigurationv1.MachineConfigPoolCondition{
			condition(machineconfigurationv1.MachineConfigPoolUpdated, corev1.ConditionFalse, ""),
			condition(machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionTrue, "All nodes are updating to MachineConfig "+config),
			condition(machineconfigurationv1.MachineConfigPoolDegraded, corev1.ConditionFalse, ""),
			condition(machineconfigurationv1.MachineConfigPoolNodeDegraded, corev1.ConditionFalse, ""),
			condition(machineconfigurationv1.MachineConfigPoolRenderDegraded, corev1.ConditionFalse, ""),
		},
	}
}

// scaleRenderedConfig is a rendered MachineConfig of a pool at a version:
// its annotation names the version, its Ignition config holds a dozen
// files and units, a few KB, as real ones do (the largest are the
// pull secret and certificates, left out).
func scaleRenderedConfig(name string, pool *machineconfigurationv1.MachineConfigPool, version string) *machineconfigurationv1.MachineConfig {
	var files []map[string]any
	for _, path := range []string{
		"/etc/kubernetes/kubelet.conf", "/etc/crio/crio.conf.d/00-default", "/etc/containers/registries.conf",
		"/etc/containers/policy.json", "/etc/sysctl.d/inotify.conf", "/etc/systemd/system.conf.d/kubelet-cgroups.conf",
		"/etc/NetworkManager/conf.d/01-ipv6.conf", "/etc/kubernetes/cloud.conf", "/usr/local/bin/configure-ovs.sh",
		"/etc/modules-load.d/iptables.conf", "/etc/chrony.conf", "/etc/audit/rules.d/mco-audit-quiet-containers.rules",
	} {
		var body strings.Builder
		for line := range 12 {
			fmt.Fprintf(&body, "# %s, rendered for %s\nsetting_%d = \"value-%d-%s\"\n", path, version, line, line, name)
		}
		files = append(files, map[string]any{
			"path": path, "mode": 420, "overwrite": true,
			"contents": map[string]any{"source": "data:," + url.PathEscape(body.String())},
		})
	}
	var units []map[string]any
	for _, unit := range []string{"kubelet.service", "crio.service", "machine-config-daemon-firstboot.service", "ovs-configuration.service", "nodeip-configuration.service"} {
		units = append(units, map[string]any{
			"name": unit, "enabled": true,
			"contents": fmt.Sprintf("[Unit]\nDescription=%s\nWants=network-online.target\nAfter=network-online.target\n\n[Service]\nType=notify\nExecStart=/usr/bin/%s --config=/etc/%s\nRestart=always\nRestartSec=10\n\n[Install]\nWantedBy=multi-user.target\n", unit, strings.TrimSuffix(unit, ".service"), name),
		})
	}
	config, err := json.Marshal(map[string]any{
		"ignition": map[string]any{"version": "3.4.0"},
		"passwd":   map[string]any{"users": []map[string]any{{"name": "core", "sshAuthorizedKeys": []string{"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOw2Jq9cZf3x7d0nK4H5bT8mYQ1pR6sV2uW3xA9zB0cD admin@example.com"}}}},
		"storage":  map[string]any{"files": files},
		"systemd":  map[string]any{"units": units},
	})
	if err != nil {
		panic(err)
	}
	osImage := fmt.Sprintf("quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:%x", sha256.Sum256([]byte("rhcos "+version)))
	controller := true
	return &machineconfigurationv1.MachineConfig{
		ObjectMeta: metav1.ObjectMeta{
			Name: name,
			Annotations: map[string]string{
				"machineconfiguration.openshift.io/generated-by-controller-version": "f8b8bc9f4c2c5d8a8e0a2a3f8e2b6a7c9d1e0f3b",
				nodes.ReleaseImageVersionAnnotation:                                 version,
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "machineconfiguration.openshift.io/v1", Kind: "MachineConfigPool",
				Name: pool.Name, UID: pool.UID, Controller: &controller, BlockOwnerDeletion: &controller,
			}},
		},
		Spec: machineconfigurationv1.MachineConfigSpec{
			OSImageURL:      osImage,
			Config:          apiruntime.RawExtension{Raw: config},
			KernelArguments: []string{"systemd.unified_cgroup_hierarchy=1", "cgroup_no_v1=\"all\"", "psi=0"},
			KernelType:      "default",
		},
	}
}
