package node

import (
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// fixtures are the machine-config operator's image-mode objects in the
// shapes its code writes (test/testdata/imagemode/README.md).
const fixtures = "../../../test/testdata/imagemode/"

func decodeFixture(t *testing.T, file string, into any) {
	t.Helper()
	b, err := os.ReadFile(fixtures + file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, into); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// TestStrippedImageModeObjectsAssessTheSame holds the caches' transforms
// of MachineOSConfigs, MachineOSBuilds, build pods and MachineConfigNodes
// to what the assessment reads of them: the same state from stripped
// objects as from whole ones, in fewer bytes.
func TestStrippedImageModeObjectsAssessTheSame(t *testing.T) {
	var mosc machineconfigurationv1.MachineOSConfig
	decodeFixture(t, "machineosconfig.yaml", &mosc)
	var builds machineconfigurationv1.MachineOSBuildList
	decodeFixture(t, "machineosbuilds.yaml", &builds)
	var pod corev1.Pod
	decodeFixture(t, "build-pod-failed.yaml", &pod)
	var mcns machineconfigurationv1.MachineConfigNodeList
	decodeFixture(t, "machineconfignodes.yaml", &mcns)
	if len(builds.Items) == 0 || len(mcns.Items) == 0 {
		t.Fatal("the fixtures hold no MachineOSBuilds or MachineConfigNodes")
	}
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)

	strippedConfig := strip(t, StripMachineConfiguration, &mosc).(*machineconfigurationv1.MachineOSConfig)
	var whole, stripped []*machineconfigurationv1.MachineOSBuild
	for i := range builds.Items {
		whole = append(whole, &builds.Items[i])
		stripped = append(stripped, strip(t, StripMachineConfiguration, &builds.Items[i]).(*machineconfigurationv1.MachineOSBuild))
	}
	strippedPod := strip(t, StripBuildPod, &pod).(*corev1.Pod)
	for _, b := range whole {
		t.Run(b.Name, func(t *testing.T) {
			pool := &machineconfigurationv1.MachineConfigPool{ObjectMeta: metav1.ObjectMeta{Name: mosc.Spec.MachineConfigPool.Name}}
			pool.Spec.Configuration.Name = b.Spec.MachineConfig.Name
			assess := func(config *machineconfigurationv1.MachineOSConfig, builds []*machineconfigurationv1.MachineOSBuild, pod *corev1.Pod) any {
				p := imagemode.Of(pool, []*machineconfigurationv1.MachineOSConfig{config}, builds)
				return imagemode.Status(p, pool.Spec.Configuration.Name, imagemode.FailureOf(p.JobName(), []*corev1.Pod{pod}), now)
			}
			if diff := cmp.Diff(assess(&mosc, whole, &pod), assess(strippedConfig, stripped, strippedPod)); diff != "" {
				t.Errorf("stripped objects assess differently (-whole +stripped):\n%s", diff)
			}
		})
	}
	if got := imagemode.FailureOf(pod.Labels[imagemode.JobNameLabel], []*corev1.Pod{strippedPod}); got.Words == "" {
		t.Errorf("the stripped failed pod says nothing of its failure: %+v", got)
	}

	before, after := 0, 0
	for i := range mcns.Items {
		mcn := &mcns.Items[i]
		t.Run(mcn.Name, func(t *testing.T) {
			node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: mcn.Spec.Node.Name, Annotations: map[string]string{
				nodes.DesiredConfigAnnotation: mcn.Spec.ConfigVersion.Desired}}}
			s := strip(t, StripMachineConfiguration, mcn).(*machineconfigurationv1.MachineConfigNode)
			if diff := cmp.Diff(nodes.ReadMachineConfigNode(mcn, node), nodes.ReadMachineConfigNode(s, node)); diff != "" {
				t.Errorf("a stripped MachineConfigNode reads differently (-whole +stripped):\n%s", diff)
			}
			before, after = before+size(t, mcn), after+size(t, s)
		})
	}
	if after >= before {
		t.Errorf("stripped MachineConfigNodes take %d bytes, whole ones %d", after, before)
	}
	t.Logf("MachineConfigNodes: %d bytes whole, %d stripped", before, after)
}
