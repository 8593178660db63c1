package main

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

func newTestLayeredPool(t *testing.T) (*scenario, *layeredPool) {
	t.Helper()
	// The fixtures are read from the repository's root, where make runs
	// run-local.
	t.Chdir("../..")
	s, err := loadScenario("test/testdata/oc-examples/4.15.0-ec2-early", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLayeredPool(s.nodes)
	if err != nil {
		t.Fatal(err)
	}
	return s, l
}

// The image-mode pool is a custom pool beside the worker pool, rolled
// before it, with its own nodes at its configuration and image, and the
// worker pool keeps its nodes: the held drain's workers are the same.
func TestNewLayeredPool(t *testing.T) {
	s, l := newTestLayeredPool(t)
	var order []string
	for _, p := range s.nodes.pools {
		order = append(order, p.Name)
	}
	if want := []string{"master", l.name, names.WorkerPool}; !slices.Equal(order, want) {
		t.Errorf("pools %v, want %v", order, want)
	}
	if l.from != "4.14.1" || len(l.nodes) != layeredNodeCount {
		t.Errorf("from %q with nodes %v, want 4.14.1 and %d nodes", l.from, l.nodes, layeredNodeCount)
	}
	image := l.digested(l.pastBuildName())
	for _, node := range s.nodes.nodes {
		_, layered := node.Labels["node-role.kubernetes.io/"+l.name]
		_, worker := node.Labels["node-role.kubernetes.io/"+names.WorkerPool]
		if !slices.Contains(l.nodes, node.Name) {
			if layered {
				t.Errorf("recorded node %s is labelled for pool %s", node.Name, l.name)
			}
			continue
		}
		a := node.Annotations
		if !layered || worker || a[nodes.CurrentConfigAnnotation] != renderedName(l.name, "4.14.1") || a[nodes.DesiredConfigAnnotation] != a[nodes.CurrentConfigAnnotation] ||
			a[nodes.CurrentImageAnnotation] != image || a[nodes.DesiredImageAnnotation] != image || a[nodes.StateAnnotation] != "Done" {
			t.Errorf("node %s: labels %v, annotations %v", node.Name, node.Labels, a)
		}
	}
	held, err := newHeldDrain(s.nodes, names.WorkerPool)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(l.nodes, held.node) || slices.Contains(l.nodes, held.scaledTo) || slices.Contains(l.nodes, held.replacedTo) {
		t.Errorf("the held drain %+v uses a node of pool %s", held, l.name)
	}
	if !strings.HasPrefix(image, "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:") || len(image) != len("image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:")+64 {
		t.Errorf("image %q, want the push spec's repository at a sha256 digest", image)
	}
}

// A build pod is the fixture's with the build's names: nothing of the
// fixture's build, configuration or pool is left.
func TestForBuild(t *testing.T) {
	_, l := newTestLayeredPool(t)
	b := &imageBuild{name: l.buildName("rendered-layered-0123"), rendered: "rendered-layered-0123"}
	pod, err := l.forBuild(b)
	if err != nil {
		t.Fatal(err)
	}
	data, err := yaml.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	if left := fixtureBuild.FindString(string(data)); left != "" {
		t.Errorf("the build pod still names the fixture's build %s", left)
	}
	if strings.Contains(string(data), "=worker") {
		t.Error("the build pod's labels still name the fixture's pool worker")
	}
	message := pod.Status.InitContainerStatuses[0].State.Terminated.Message
	if !strings.Contains(message, "os-image:"+b.name) || !strings.HasSuffix(lastLine(message), "unauthorized: authentication required") {
		t.Errorf("the build's words do not push its tag, or end otherwise: %q", lastLine(message))
	}
	if !strings.Contains(string(data), "rendered-machine-config="+b.rendered) || pod.Spec.NodeName != l.buildNode {
		t.Errorf("the build pod lacks its configuration's label or runs on %s", pod.Spec.NodeName)
	}
	job := l.jobFor(&machineconfigurationv1.MachineOSBuild{
		ObjectMeta: metav1.ObjectMeta{Name: b.name, UID: "7e795a70"},
		Spec: machineconfigurationv1.MachineOSBuildSpec{MachineConfig: machineconfigurationv1.MachineConfigReference{Name: b.rendered},
			MachineOSConfig: machineconfigurationv1.MachineOSConfigReference{Name: l.name}},
	})
	if job.Name != "build-"+b.name || *job.Spec.BackoffLimit != jobMaxRetries || job.Spec.Template.Spec.NodeName != "" ||
		job.Spec.Template.Spec.InitContainers[0].Name != imagemode.BuildContainer || len(job.Spec.Template.Labels) != 0 {
		t.Errorf("the build Job: %+v", job)
	}
	for _, v := range job.Spec.Template.Spec.Volumes {
		if strings.HasPrefix(v.Name, "kube-api-access-") {
			t.Errorf("the Job's template has the token volume %s that admission adds to a pod", v.Name)
		}
	}
}

// The conditions a build goes through are in the order the build
// controller leaves them, as the fixtures have them.
func TestSetBuildConditions(t *testing.T) {
	t.Chdir("../..")
	data, err := os.ReadFile("test/testdata/imagemode/machineosbuilds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []machineconfigurationv1.MachineOSBuild `json:"items"`
	}
	if err := yaml.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	types := func(status machineconfigurationv1.MachineOSBuildStatus) []string {
		var out []string
		for _, c := range status.Conditions {
			out = append(out, c.Type+"="+string(c.Status))
		}
		return out
	}
	fixture := map[imagemode.State][]string{}
	for _, b := range list.Items {
		fixture[imagemode.StateOf(&b)] = types(b.Status)
	}
	start := time.Now()
	var status machineconfigurationv1.MachineOSBuildStatus
	for i, state := range []imagemode.State{imagemode.Prepared, imagemode.Building, imagemode.Succeeded} {
		setBuildConditions(&status, state, start.Add(time.Duration(i)*time.Minute))
		if got := types(status); !slices.Equal(got, fixture[state]) {
			t.Errorf("%s: conditions %v, the fixture's %v", state, got, fixture[state])
		}
		if b := (&machineconfigurationv1.MachineOSBuild{Status: status}); imagemode.StateOf(b) != state {
			t.Errorf("%s: read as %s", state, imagemode.StateOf(b))
		}
	}
	status = machineconfigurationv1.MachineOSBuildStatus{}
	for _, state := range []imagemode.State{imagemode.Prepared, imagemode.Building, imagemode.Failed} {
		setBuildConditions(&status, state, start)
	}
	if got := types(status); !slices.Equal(got, fixture[imagemode.Failed]) {
		t.Errorf("Failed: conditions %v, the fixture's %v", got, fixture[imagemode.Failed])
	}
}

// The pool's status is the node controller's for a layered pool: updating
// while its build runs or failed, Degraded once it failed, updated once
// its nodes run the configuration and the MachineOSConfig's image.
func TestLayeredPoolStatus(t *testing.T) {
	pool := &machineconfigurationv1.MachineConfigPool{ObjectMeta: metav1.ObjectMeta{Name: "layered"}}
	pool.Spec.Configuration.Name = "rendered-layered-new"
	pool.Status.Configuration.Name = "rendered-layered-old"
	mosc := &machineconfigurationv1.MachineOSConfig{ObjectMeta: metav1.ObjectMeta{Name: "layered"}}
	mosc.Status.CurrentImagePullSpec = "registry.example.com/os@sha256:old"
	build := func(state imagemode.State) *machineconfigurationv1.MachineOSBuild {
		b := &machineconfigurationv1.MachineOSBuild{ObjectMeta: metav1.ObjectMeta{Name: "layered-new"}}
		b.Spec.MachineConfig.Name = "rendered-layered-new"
		setBuildConditions(&b.Status, state, time.Now())
		return b
	}
	node := func(config, image string) *corev1.Node {
		return &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: "n", Annotations: map[string]string{nodes.CurrentConfigAnnotation: config, nodes.DesiredConfigAnnotation: config,
				nodes.CurrentImageAnnotation: image, nodes.DesiredImageAnnotation: image, nodes.StateAnnotation: "Done"}},
			Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
		}
	}
	condition := func(s machineconfigurationv1.MachineConfigPoolStatus, t machineconfigurationv1.MachineConfigPoolConditionType) string {
		for _, c := range s.Conditions {
			if c.Type == t {
				return string(c.Status) + " " + c.Message
			}
		}
		return ""
	}
	old := []*corev1.Node{node("rendered-layered-old", "registry.example.com/os@sha256:old")}
	building := layeredPoolStatus(pool, old, mosc, build(imagemode.Building), time.Now())
	if got := condition(building, machineconfigurationv1.MachineConfigPoolUpdating); got != "True Pool is waiting for OS image build to complete (mosb: layered-new)" {
		t.Errorf("building: Updating %q", got)
	}
	failed := layeredPoolStatus(pool, old, mosc, build(imagemode.Failed), time.Now())
	if got := condition(failed, machineconfigurationv1.MachineConfigPoolUpdating); got != "False Pool update stopped due to OS image build failure (mosb: layered-new)" {
		t.Errorf("failed: Updating %q", got)
	}
	if got := condition(failed, machineconfigurationv1.MachineConfigPoolDegraded); got != "True Custom OS image build failed" {
		t.Errorf("failed: Degraded %q", got)
	}
	if got := condition(layeredPoolStatus(pool, old, mosc, build(imagemode.Building), time.Now()), machineconfigurationv1.MachineConfigPoolDegraded); !strings.HasPrefix(got, "False") {
		t.Errorf("retried: Degraded %q", got)
	}
	succeeded := build(imagemode.Succeeded)
	succeeded.Status.DigestedImagePushSpec = "registry.example.com/os@sha256:new"
	mosc.Status.CurrentImagePullSpec = succeeded.Status.DigestedImagePushSpec
	done := layeredPoolStatus(pool, []*corev1.Node{node("rendered-layered-new", "registry.example.com/os@sha256:new")}, mosc, succeeded, time.Now())
	if done.UpdatedMachineCount != 1 || done.Configuration.Name != "rendered-layered-new" || !strings.HasPrefix(condition(done, machineconfigurationv1.MachineConfigPoolUpdated), "True") {
		t.Errorf("done: %d updated, configuration %s, Updated %q", done.UpdatedMachineCount, done.Configuration.Name, condition(done, machineconfigurationv1.MachineConfigPoolUpdated))
	}
	// The configuration without the image is not updated.
	if s := layeredPoolStatus(pool, []*corev1.Node{node("rendered-layered-new", "registry.example.com/os@sha256:old")}, mosc, succeeded, time.Now()); s.UpdatedMachineCount != 0 {
		t.Errorf("a node without the image: %d updated", s.UpdatedMachineCount)
	}
}

// What status prints of the image-mode pool, as it printed it in a run.
const (
	buildingStatus = `= Control Plane =
Update to 4.15.0-ec.2 successfully completed at 2026-12-04T04:37:46Z (duration: 13m)

= Worker Upgrade =

WORKER POOL   ASSESSMENT    COMPLETION   STATUS
worker        Pending       0% (0/3)     3 Available, 0 Progressing, 0 Draining
layered       Progressing   0% (0/2)     2 Available, 0 Progressing, 0 Draining

MachineConfigPool layered: OS image build Building since 2026-12-04T04:37:46Z (1s), about 8m left by its past builds: MachineOSBuild layered-3468 builds the OS image for configuration rendered-layered-1491 in Job openshift-machine-config-operator/build-layered-3468

Worker Pool Nodes: worker
NAME                                        ASSESSMENT   PHASE     VERSION   EST   MESSAGE
ip-10-0-20-162.us-east-2.compute.internal   Outdated     Pending   4.14.1    ?

Worker Pool Nodes: layered
NAME                                        ASSESSMENT   PHASE     VERSION   EST   MESSAGE
ip-10-0-41-87.us-east-2.compute.internal    Outdated     Pending   4.14.1    ?
ip-10-0-58-212.us-east-2.compute.internal   Outdated     Pending   4.14.1    ?

= Update Health =
SINCE   LEVEL   IMPACT   MESSAGE
13m     Info    None     Update is proceeding well
`
	failedStatus = `= Worker Upgrade =

WORKER POOL   ASSESSMENT    COMPLETION   STATUS
worker        Pending       0% (0/3)     3 Available, 0 Progressing, 0 Draining
layered       Degraded      0% (0/2)     2 Available, 0 Progressing, 0 Draining

MachineConfigPool layered: OS image build Failed since 2026-12-04T04:37:49Z (now): MachineOSBuild layered-3468 failed: …Copying blob sha256:107602 Error: pushing image "x": writing blob: unauthorized: authentication required

Worker Pool Nodes: layered
NAME                                        ASSESSMENT   PHASE     VERSION   EST   MESSAGE
ip-10-0-41-87.us-east-2.compute.internal    Outdated     Pending   4.14.1    ?
ip-10-0-58-212.us-east-2.compute.internal   Outdated     Pending   4.14.1    ?

= Update Health =
SINCE   LEVEL   IMPACT           MESSAGE
now     Error   Update Stalled   OS image build layered-3468 of pool layered failed: Error: pushing image "x": writing blob: unauthorized: authentication required
`
	failedDetails = `= Update Health =
Message: OS image build layered-3468 of pool layered failed: Error: pushing image "x": writing blob: unauthorized: authentication required
  Since:       now
  Level:       Error
  Impact:      Update Stalled
  Description: The OS image build of MachineConfigPool layered failed. Its build pod openshift-machine-config-operator/build-layered-3468-nxl9w said, as its image-build container failed:
               , Error: pushing image "x": writing blob: unauthorized: authentication required
               , Read the whole log: oc logs -n openshift-machine-config-operator build-layered-3468-nxl9w -c image-build. The build pushes to r with the secret openshift-machine-config-operator/builder-dockercfg-7lzwl (MachineOSConfig layered, spec.renderedImagePushSecret): a push refused for authentication points there. Once the cause is fixed, have the machine-config operator build again: oc annotate machineosconfig/layered machineconfiguration.openshift.io/rebuild=

Message: Another insight
  Level:       Warning
`
	completedStatus = `= Worker Upgrade =

WORKER POOL   ASSESSMENT    COMPLETION   STATUS
layered       Completed     100% (2/2)   2 Available, 0 Progressing, 0 Draining

Worker Pool Nodes: layered
NAME                                        ASSESSMENT   PHASE     VERSION       EST   MESSAGE
ip-10-0-41-87.us-east-2.compute.internal    Completed    Updated   4.15.0-ec.2   -
ip-10-0-58-212.us-east-2.compute.internal   Completed    Updated   4.15.0-ec.2   -
`
)

func TestLayeredSays(t *testing.T) {
	l := &layeredPool{name: "layered", nodes: []string{"ip-10-0-41-87.us-east-2.compute.internal", "ip-10-0-58-212.us-east-2.compute.internal"},
		config: &machineconfigurationv1.MachineOSConfig{Spec: machineconfigurationv1.MachineOSConfigSpec{
			RenderedImagePushSecret: machineconfigurationv1.ImageSecretObjectReference{Name: "builder-dockercfg-7lzwl"}}}}
	words := "Copying blob sha256:107602\nError: pushing image \"x\": writing blob: unauthorized: authentication required\n"
	failed := buildStep{stage: stageFailed, build: "layered-3468", pod: "build-layered-3468-nxl9w", words: words}
	testCases := []struct {
		name    string
		step    buildStep
		out     string
		details bool
		wantErr string
	}{
		{name: "building", step: buildStep{stage: stageBuilding, build: "layered-3468"}, out: buildingStatus},
		{name: "building, another build", step: buildStep{stage: stageBuilding, build: "layered-9999"}, out: buildingStatus, wantErr: "naming MachineOSBuild layered-9999"},
		{name: "building, read as failed", step: failed, out: buildingStatus, wantErr: "Degraded"},
		{name: "failed", step: failed, out: failedStatus},
		{name: "failed, with details", step: failed, out: strings.Replace(failedStatus, "= Update Health =\n", "", 1) + failedDetails, details: true},
		{name: "failed, details without the rebuild", step: failed, out: strings.Replace(failedStatus, "= Update Health =\n", "", 1) + strings.Replace(failedDetails, "oc annotate", "annotate", 1),
			details: true, wantErr: "oc annotate machineosconfig/layered"},
		{name: "failed, other words", step: buildStep{stage: stageFailed, build: "layered-3468", pod: "p", words: "Error: no space left on device"}, out: failedStatus, wantErr: "no space left"},
		{name: "retried, the failure still shown", step: buildStep{stage: stageRebuilding, build: "layered-3468"},
			out: strings.Replace(buildingStatus, "13m     Info    None     Update is proceeding well", "now  Error  Update Stalled  OS image build layered-3468 of pool layered failed: x", 1), wantErr: "once the build is retried"},
		{name: "completed", step: buildStep{stage: stageCompleted, build: "layered-3468"}, out: completedStatus},
		{name: "completed, with a build line", step: buildStep{stage: stageCompleted, build: "layered-3468"},
			out: strings.Replace(completedStatus, "\nWorker Pool Nodes", "\nMachineConfigPool layered: OS image build Succeeded since x\n\nWorker Pool Nodes", 1), wantErr: "no OS image build line"},
		{name: "rolling", step: buildStep{stage: stageRolling, node: "ip-10-0-41-87.us-east-2.compute.internal"},
			out: strings.Replace(buildingStatus, "ip-10-0-41-87.us-east-2.compute.internal    Outdated     Pending", "ip-10-0-41-87.us-east-2.compute.internal    Progressing  Draining", 1)},
		{name: "rolling, the node still pending", step: buildStep{stage: stageRolling, node: "ip-10-0-41-87.us-east-2.compute.internal"}, out: buildingStatus, wantErr: "Progressing"},
	}
	for _, tt := range testCases {
		t.Run(tt.name, func(t *testing.T) {
			err := layeredSays(l, tt.step, tt.out, tt.details)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("layeredSays() = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("layeredSays() = %v, want an error saying %q", err, tt.wantErr)
			}
		})
	}
}

func TestLayeredExcerpt(t *testing.T) {
	got := layeredExcerpt(failedStatus, "layered", false)
	want := []string{
		"WORKER POOL   ASSESSMENT    COMPLETION   STATUS",
		"layered       Degraded      0% (0/2)     2 Available, 0 Progressing, 0 Draining",
		`MachineConfigPool layered: OS image build Failed since 2026-12-04T04:37:49Z (now): MachineOSBuild layered-3468 failed: …Copying blob sha256:107602 Error: pushing image "x": writing blob: unauthorized: authentication required`,
		"Worker Pool Nodes: layered",
		"NAME                                        ASSESSMENT   PHASE     VERSION   EST   MESSAGE",
		"ip-10-0-41-87.us-east-2.compute.internal    Outdated     Pending   4.14.1    ?",
		"ip-10-0-58-212.us-east-2.compute.internal   Outdated     Pending   4.14.1    ?",
		"= Update Health =",
		"SINCE   LEVEL   IMPACT           MESSAGE",
		`now     Error   Update Stalled   OS image build layered-3468 of pool layered failed: Error: pushing image "x": writing blob: unauthorized: authentication required`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("layeredExcerpt() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	details := layeredExcerpt(failedDetails, "layered", true)
	if len(details) < 3 || details[1] != strings.Split(failedDetails, "\n")[1] || slices.Contains(details, "Message: Another insight") {
		t.Errorf("layeredExcerpt() with details =\n%s", strings.Join(details, "\n"))
	}
	if got := layeredExcerpt(buildingStatus, "layered", false); slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "Update Health") || strings.HasPrefix(s, "worker ") }) {
		t.Errorf("layeredExcerpt() of a status without an OS image build insight =\n%s", strings.Join(got, "\n"))
	}
}
