package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// layeredWait is how long each stage of the image-mode pool's roll waits
// for the operator's insights, and then for the status command, to say
// what the stage makes true: the operator reacts in about a second, a busy
// machine takes longer.
const layeredWait = 2 * time.Minute

// pendingNodeWords are the words of a node insight's Updating condition
// for a node that waits on its pool's build (pkg/assessment/nodes, node.go).
const pendingNodeWords = "waits for its pool's OS image"

// watchLayered is the image-mode pool's roll's watch: at each stage it
// waits until the operator's insights say what the machine-config
// operator's state makes true then, runs the status command (and, once
// the build failed, its health details) until it says so too, and prints
// its lines of the pool and of the build's failure. With check, a stage
// that neither says within layeredWait fails the play; without, it is
// shown as it is.
func (w walkthrough) watchLayered(ctx context.Context, c *clients, l *layeredPool, check bool) *layeredWatch {
	lw := &layeredWatch{pool: l}
	lw.step = func(s buildStep) error {
		lw.seen = append(lw.seen, s.stage)
		say("the %s pool's roll: %s", l.name, describeStage(l, s))
		if err := waitForLayered(ctx, c, l, s); err != nil {
			if check {
				return fmt.Errorf("the %s pool, %s: %w", l.name, s.stage, err)
			}
			say("%v; going on anyway", err)
		}
		if s.stage == stageBuilding || s.stage == stageFailed || s.stage == stageRebuilding {
			if m, err := nodeMessage(ctx, c, l.nodes[0]); err == nil {
				say("node %s's insight: %s", l.nodes[0], m)
			}
		}
		commands := [][]string{{"status"}}
		if s.stage == stageFailed {
			commands = append(commands, []string{"status", "--details=health"})
		}
		for _, args := range commands {
			details := len(args) > 1
			out, err := w.statusUntil(ctx, args, func(out string) error { return layeredSays(l, s, out, details) })
			if ctx.Err() != nil {
				return nil
			}
			say("$ %s  (the %s pool's lines%s)", w.commandLine(args), l.name, map[bool]string{true: " and the build's insight", false: ""}[s.stage == stageFailed])
			for _, line := range layeredExcerpt(out, l.name, details) {
				say("    %s", line)
			}
			if err != nil {
				if check {
					return fmt.Errorf("%s, the %s pool %s: %w", strings.Join(args, " "), l.name, s.stage, err)
				}
				say("status does not say what it should: %v", err)
			}
		}
		if check {
			say("check passed: %s", stageChecked(l, s))
			lw.checked = append(lw.checked, s.stage)
		}
		return nil
	}
	return lw
}

// layeredWatch is the watch of the image-mode pool's roll, and the stages
// it saw and checked.
type layeredWatch struct {
	pool          *layeredPool
	step          func(buildStep) error
	seen, checked []buildStage
}

// allStages are the stages of a roll whose first build fails.
var allStages = []buildStage{stageBuilding, stageFailed, stageRebuilding, stageRolling, stageCompleted}

// done fails unless every stage of the roll was checked, in order.
func (lw *layeredWatch) done() error {
	if !slices.Equal(lw.checked, allStages) {
		return fmt.Errorf("want the %s pool's roll checked at each of its stages %v, checked %v of %v", lw.pool.name, allStages, lw.checked, lw.seen)
	}
	return nil
}

// describeStage says what the machine-config operator has done at s.
func describeStage(l *layeredPool, s buildStep) string {
	switch s.stage {
	case stageBuilding:
		return fmt.Sprintf("MachineOSBuild %s builds; the node controller gives no node %s meanwhile", s.build, s.rendered)
	case stageFailed:
		return fmt.Sprintf("MachineOSBuild %s failed; its nodes keep %s", s.build, s.from)
	case stageRebuilding:
		return fmt.Sprintf("MachineOSBuild %s, made anew by the rebuild annotation, builds", s.build)
	case stageRolling:
		return fmt.Sprintf("node %s takes %s and image %s", s.node, s.rendered, s.image)
	}
	return fmt.Sprintf("every node runs %s and image %s", s.rendered, s.image)
}

// stageChecked says what the check of s found.
func stageChecked(l *layeredPool, s buildStep) string {
	switch s.stage {
	case stageBuilding:
		return fmt.Sprintf("the %s pool is Progressing on its OS image build Building (MachineOSBuild %s), its nodes Pending and their insights saying each %q", l.name, s.build, pendingNodeWords)
	case stageFailed:
		return fmt.Sprintf("the %s pool is Degraded, status says its OS image build Failed with pod %s's last words, and its health section has the Error insight naming the pod, its log, the push secret and the rebuild annotation", l.name, s.pod)
	case stageRebuilding:
		return fmt.Sprintf("the %s pool's OS image build is Building again, and the failure's insight is gone", l.name)
	case stageRolling:
		return fmt.Sprintf("the %s pool is Progressing with node %s", l.name, s.node)
	}
	return fmt.Sprintf("the %s pool is Completed, with no OS image build line", l.name)
}

// waitForLayered waits until the operator's insights say what s makes
// true, at most layeredWait, and says what they said otherwise.
func waitForLayered(ctx context.Context, c *clients, l *layeredPool, s buildStep) error {
	ctx, cancel := context.WithTimeout(ctx, layeredWait)
	defer cancel()
	var why error
	for {
		if why = insightsSay(ctx, c, l, s); why == nil {
			return nil
		}
		if !sleep(ctx, 250*time.Millisecond) {
			return fmt.Errorf("the operator's insights did not say it within %s: %w", layeredWait, why)
		}
	}
}

// insightsSay says what the pool's and its nodes' insights, and the health
// insights, do not say of s; nil when they say it all.
func insightsSay(ctx context.Context, c *clients, l *layeredPool, s buildStep) error {
	insights := c.insights.InsightsV1alpha1()
	pools, err := insights.MachineConfigPoolProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	var pool *insightsv1alpha1.MachineConfigPoolProgressInsightStatus
	for i := range pools.Items {
		if pools.Items[i].Status.Name == l.name {
			pool = &pools.Items[i].Status
		}
	}
	if pool == nil {
		return fmt.Errorf("no insight of pool %s", l.name)
	}
	ib := pool.ImageBuild
	wantBuild := func(state insightsv1alpha1.ImageBuildState) error {
		if ib == nil || ib.MachineOSBuild != s.build || ib.State != state {
			return fmt.Errorf("the pool's insight has imageBuild %s, want MachineOSBuild %s %s", describeImageBuild(ib), s.build, state)
		}
		return nil
	}
	wantAssessment := func(a insightsv1alpha1.PoolAssessment) error {
		if pool.Assessment != a {
			return fmt.Errorf("the pool's insight is %s, want %s", pool.Assessment, a)
		}
		return nil
	}
	failure, err := failureInsight(ctx, c, l, s.build)
	if err != nil {
		return err
	}
	switch s.stage {
	case stageBuilding, stageRebuilding:
		if err := wantBuild(insightsv1alpha1.ImageBuildBuilding); err != nil {
			return err
		}
		if err := wantAssessment(insightsv1alpha1.PoolProgressing); err != nil {
			return err
		}
		if failure != "" {
			return fmt.Errorf("a health insight still says %q", failure)
		}
		return nodesWait(ctx, c, l, s)
	case stageFailed:
		if err := wantBuild(insightsv1alpha1.ImageBuildFailed); err != nil {
			return err
		}
		if err := wantAssessment(insightsv1alpha1.PoolDegraded); err != nil {
			return err
		}
		if failure == "" {
			return fmt.Errorf("no health insight says %q", failureSummaryPrefix(l, s.build))
		}
		return nodesWait(ctx, c, l, s)
	case stageRolling:
		if err := wantAssessment(insightsv1alpha1.PoolProgressing); err != nil {
			return err
		}
		return nodeUpdating(ctx, c, s.node)
	}
	return wantAssessment(insightsv1alpha1.PoolCompleted)
}

func describeImageBuild(ib *insightsv1alpha1.PoolImageBuild) string {
	if ib == nil {
		return "none"
	}
	return fmt.Sprintf("MachineOSBuild %q %s", ib.MachineOSBuild, ib.State)
}

// failureSummaryPrefix starts the summary of the health insight of the
// build's failure (pkg/health, imagebuild.go).
func failureSummaryPrefix(l *layeredPool, build string) string {
	return fmt.Sprintf("OS image build %s of pool %s failed: ", build, l.name)
}

// failureInsight is the summary of the health insight of the build's
// failure, empty when there is none.
func failureInsight(ctx context.Context, c *clients, l *layeredPool, build string) (string, error) {
	health, err := c.insights.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", err
	}
	for _, h := range health.Items {
		if strings.HasPrefix(h.Status.Impact.Summary, failureSummaryPrefix(l, build)) {
			return h.Status.Impact.Summary, nil
		}
	}
	return "", nil
}

// nodesWait checks that every node of the pool still has its
// configuration from before the update as desiredConfig, as the node
// controller leaves it while the build is not done, and that its insight
// says it waits for the pool's OS image.
func nodesWait(ctx context.Context, c *clients, l *layeredPool, s buildStep) error {
	for _, name := range l.nodes {
		node, err := c.kube.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if d := node.Annotations[nodes.DesiredConfigAnnotation]; d != s.from {
			return fmt.Errorf("node %s has desiredConfig %s while the build is not done, want %s", name, d, s.from)
		}
	}
	list, err := c.insights.InsightsV1alpha1().NodeProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	waiting := 0
	for _, n := range list.Items {
		if n.Status.PoolResource.Name != l.name {
			continue
		}
		u := meta.FindStatusCondition(n.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		if u == nil || u.Status != metav1.ConditionFalse || u.Reason != insightsv1alpha1.NodePending || !strings.Contains(u.Message, pendingNodeWords) ||
			!strings.Contains(u.Message, s.build) {
			return fmt.Errorf("node %s's insight is not Pending waiting for MachineOSBuild %s: %s", n.Status.Name, s.build, describeCondition(u))
		}
		waiting++
	}
	if waiting != len(l.nodes) {
		return fmt.Errorf("%d of the pool's %d nodes have insights", waiting, len(l.nodes))
	}
	return nil
}

// nodeUpdating checks that the node's insight says it updates.
func nodeUpdating(ctx context.Context, c *clients, node string) error {
	list, err := c.insights.InsightsV1alpha1().NodeProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, n := range list.Items {
		if n.Status.Name == node {
			if u := meta.FindStatusCondition(n.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating); u == nil || u.Status != metav1.ConditionTrue {
				return fmt.Errorf("node %s's insight is not updating: %s", node, describeCondition(u))
			}
			return nil
		}
	}
	return fmt.Errorf("no insight of node %s", node)
}

// nodeMessage is the Updating condition of the node's insight.
func nodeMessage(ctx context.Context, c *clients, node string) (string, error) {
	list, err := c.insights.InsightsV1alpha1().NodeProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", err
	}
	for _, n := range list.Items {
		if n.Status.Name == node {
			return describeCondition(meta.FindStatusCondition(n.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)), nil
		}
	}
	return "", fmt.Errorf("no insight of node %s", node)
}

func describeCondition(c *metav1.Condition) string {
	if c == nil {
		return "no Updating condition"
	}
	return fmt.Sprintf("Updating=%s (%s) %s", c.Status, c.Reason, c.Message)
}

// statusUntil runs the status command with args until ok accepts what it
// printed, at most layeredWait, and returns its last output, and ok's last
// complaint.
func (w walkthrough) statusUntil(ctx context.Context, args []string, ok func(string) error) (string, error) {
	deadline := time.Now().Add(layeredWait)
	for {
		out, _, err := w.quietly(ctx, args)
		if err == nil {
			err = ok(out)
		}
		if err == nil || time.Now().After(deadline) || !sleep(ctx, 500*time.Millisecond) {
			return out, err
		}
	}
}

// statusLines are the parts of status' output the image-mode pool's checks
// read.
type statusLines struct {
	// row is the pool's row of the worker pools' table; build its OS image
	// build line, empty when there is none.
	row, build string
	// nodes are the rows of the pool's nodes' table, by node.
	nodes map[string]string
	// health are the lines of the health section; insight is, with
	// details, the block of the build failure's insight.
	health  []string
	insight string
}

func parseStatus(out, pool string, failurePrefix string) statusLines {
	var s statusLines
	s.nodes = map[string]string{}
	lines := strings.Split(out, "\n")
	section := ""
	inNodes := false
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "= "):
			section, inNodes = line, false
			continue
		case strings.HasPrefix(line, "Worker Pool Nodes: "):
			inNodes = line == "Worker Pool Nodes: "+pool
			continue
		case line == "":
			inNodes = false
		}
		switch section {
		case "= Worker Upgrade =":
			fields := strings.Fields(line)
			switch {
			case inNodes && len(fields) > 0 && fields[0] != "NAME":
				s.nodes[fields[0]] = line
			case len(fields) > 0 && fields[0] == pool && !inNodes:
				s.row = line
			case strings.HasPrefix(line, "MachineConfigPool "+pool+": OS image build "):
				s.build = line
			}
		case "= Update Health =":
			s.health = append(s.health, line)
			if failurePrefix != "" && strings.HasPrefix(line, "Message: "+failurePrefix) {
				block := lines[i:]
				for j, l := range block {
					if j > 0 && (l == "" || strings.HasPrefix(l, "Message: ")) {
						block = block[:j]
						break
					}
				}
				s.insight = strings.Join(block, "\n")
			}
		}
	}
	return s
}

// layeredSays says what status' output does not say of the image-mode
// pool at s, nil when it says it all: its row's assessment; while its
// build runs or after it failed, the OS image build line naming the
// MachineOSBuild in its state (and, failed, the build pod's last words) and
// its nodes Pending; after the failure, the health section's Error insight
// (with details, its description naming the failed pod, the command that
// reads its log, the push secret and the rebuild annotation), and once the
// build is retried no longer; while a node rolls, its row Progressing; at
// the end every node Completed and no build line.
func layeredSays(l *layeredPool, s buildStep, out string, details bool) error {
	prefix := failureSummaryPrefix(l, s.build)
	st := parseStatus(out, l.name, prefix)
	assessment := map[buildStage]string{stageBuilding: "Progressing", stageFailed: "Degraded", stageRebuilding: "Progressing",
		stageRolling: "Progressing", stageCompleted: "Completed"}[s.stage]
	if f := strings.Fields(st.row); len(f) < 2 || f[1] != assessment {
		return fmt.Errorf("want the worker pools' table to have pool %s %s, its row is %q", l.name, assessment, st.row)
	}
	buildLine := "MachineConfigPool " + l.name + ": OS image build "
	nodesAre := func(phase string, which ...string) error {
		if len(which) == 0 {
			which = l.nodes
		}
		for _, n := range which {
			if !strings.Contains(st.nodes[n], " "+phase+" ") {
				return fmt.Errorf("want node %s %s in the pool's nodes, its row is %q", n, phase, st.nodes[n])
			}
		}
		return nil
	}
	failureShown := strings.Contains(strings.Join(st.health, "\n"), prefix)
	switch s.stage {
	case stageBuilding, stageRebuilding:
		if !strings.HasPrefix(st.build, buildLine+"Building since ") || !strings.Contains(st.build, "MachineOSBuild "+s.build+" builds ") {
			return fmt.Errorf("want the line %q... naming MachineOSBuild %s, got %q", buildLine+"Building since", s.build, st.build)
		}
		if failureShown {
			return fmt.Errorf("want no health insight %q... once the build is retried", prefix)
		}
		return nodesAre("Pending")
	case stageFailed:
		last := strings.Join(strings.Fields(lastLine(s.words)), " ")
		if !strings.HasPrefix(st.build, buildLine+"Failed since ") || !strings.Contains(st.build, ": MachineOSBuild "+s.build+" failed: ") || !strings.HasSuffix(st.build, last) {
			return fmt.Errorf("want the line %q... : MachineOSBuild %s failed: ...%s, got %q", buildLine+"Failed since", s.build, last, st.build)
		}
		if err := nodesAre("Pending"); err != nil {
			return err
		}
		if !details {
			// The summary keeps the end of the error, its cause, within
			// the API's 256 characters (pkg/health, imagebuild.go).
			cause := lastWords(last, 3)
			for _, line := range st.health {
				if strings.Contains(line, " Error ") && strings.Contains(line, prefix) && strings.HasSuffix(strings.TrimSpace(line), cause) {
					return nil
				}
			}
			return fmt.Errorf("want an Error line %q...%q in the health section", prefix, cause)
		}
		if st.insight == "" {
			return fmt.Errorf("want the health details to have %q", "Message: "+prefix+"...")
		}
		for _, want := range []string{
			"Level:       Error",
			imagemode.Namespace + "/" + s.pod,
			fmt.Sprintf("oc logs -n %s %s -c %s", imagemode.Namespace, s.pod, imagemode.BuildContainer),
			imagemode.Namespace + "/" + l.config.Spec.RenderedImagePushSecret.Name,
			fmt.Sprintf("oc annotate machineosconfig/%s %s=", l.name, imagemode.RebuildAnnotation),
		} {
			if !strings.Contains(st.insight, want) {
				return fmt.Errorf("want the failure's insight to say %q", want)
			}
		}
		return nil
	case stageRolling:
		return nodesAre("Progressing", s.node)
	}
	if st.build != "" {
		want := "no OS image build line"
		return fmt.Errorf("want %s once the pool completed, got %q", want, st.build)
	}
	if failureShown {
		return fmt.Errorf("want no health insight %q...", prefix)
	}
	return nodesAre("Completed")
}

// lastWords are the last n words of s.
func lastWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[max(0, len(f)-n):], " ")
}

// layeredExcerpt is status' output trimmed to the image-mode pool: the
// worker pools' table's header and the pool's row, its OS image build
// line, its nodes' table, and the health section's lines, or insight, of
// an OS image build.
func layeredExcerpt(out, pool string, details bool) []string {
	var excerpt, health []string
	lines := strings.Split(out, "\n")
	section, inNodes := "", false
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "= "):
			section, inNodes = line, false
			continue
		case strings.HasPrefix(line, "Worker Pool Nodes: "):
			inNodes = line == "Worker Pool Nodes: "+pool
			if inNodes {
				excerpt = append(excerpt, line)
			}
			continue
		case line == "":
			inNodes = false
		}
		switch section {
		case "= Worker Upgrade =":
			fields := strings.Fields(line)
			if inNodes || strings.HasPrefix(line, "WORKER POOL ") || len(fields) > 0 && fields[0] == pool ||
				strings.HasPrefix(line, "MachineConfigPool "+pool+": ") {
				excerpt = append(excerpt, line)
			}
		case "= Update Health =":
			if details && strings.HasPrefix(line, "Message: OS image build ") {
				block := lines[i:]
				for j, l := range block {
					if j > 0 && (l == "" || strings.HasPrefix(l, "Message: ")) {
						block = block[:j]
						break
					}
				}
				health = append(health, block...)
			}
			if !details && (strings.HasPrefix(line, "SINCE ") || strings.Contains(line, "OS image build ")) {
				health = append(health, line)
			}
		}
	}
	if len(health) > 1 || details && len(health) > 0 {
		excerpt = append(append(excerpt, "= Update Health ="), health...)
	}
	return excerpt
}
