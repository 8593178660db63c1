package imagemode

import (
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// Failure is the builder's own account of a failed build: the failed pod
// of its Job and the last lines its build container wrote.
type Failure struct {
	// Pod is the build Job's last failed pod, empty when none is known.
	Pod string
	// Container is the pod's container that failed.
	Container string
	// Words are the container's termination message: the build controller
	// sets TerminationMessagePolicy FallbackToLogsOnError on its containers
	// (pkg/controller/build/buildrequest/buildrequest.go), so kubelet keeps
	// the tail of the log of a container that failed. The MachineOSBuild's
	// own Failed condition says only "Build Failed"
	// (pkg/apihelpers/machineosbuild.go, MachineOSBuildFailedConditions).
	Words string
}

// maxWords bounds the builder's words quoted: the tail of a build log says
// why it failed; the pool insight's message and the health insight's
// description hold far more, and the rest is in the pod's log.
const maxWords = 800

// FailureOf reads why the build failed from the pods of its Job: the most
// recently started failed pod, its build container first. The Job retries a
// failed pod up to its backoff limit (JobMaxRetries in
// pkg/controller/build/constants), so the last failure is the one that
// failed the build.
func FailureOf(job string, pods []*corev1.Pod) Failure {
	var failed []*corev1.Pod
	for _, p := range pods {
		if p.Namespace == Namespace && p.Labels[JobNameLabel] == job && p.Status.Phase == corev1.PodFailed {
			failed = append(failed, p)
		}
	}
	if len(failed) == 0 {
		return Failure{}
	}
	slices.SortFunc(failed, func(a, b *corev1.Pod) int {
		if c := b.CreationTimestamp.Compare(a.CreationTimestamp.Time); c != 0 {
			return c
		}
		return compareNames(a.Name, b.Name)
	})
	pod := failed[0]
	f := Failure{Pod: pod.Name}
	statuses := slices.Concat(pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses)
	slices.SortStableFunc(statuses, func(a, b corev1.ContainerStatus) int {
		return boolRank(a.Name != BuildContainer) - boolRank(b.Name != BuildContainer)
	})
	for _, s := range statuses {
		t := s.State.Terminated
		if t == nil || t.ExitCode == 0 {
			continue
		}
		f.Container = s.Name
		f.Words = tail(strings.TrimSpace(t.Message), maxWords)
		if f.Words == "" {
			f.Words = fmt.Sprintf("exited with code %d (%s), leaving no message", t.ExitCode, t.Reason)
		}
		return f
	}
	return f
}

// LastLine is the last line of a build's words that says something: a
// build log ends on the error that failed it, after lines of progress.
func LastLine(words string) string {
	lines := strings.Split(words, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), "…")); l != "" {
			return l
		}
	}
	return ""
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tail keeps the last n bytes of s, whole lines where it can: the end of a
// log says why it failed.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[len(s)-n:]
	if i := strings.IndexByte(cut, '\n'); i >= 0 && i < len(cut)-1 {
		cut = cut[i+1:]
	}
	return "…" + strings.ToValidUTF8(cut, "")
}

// Status is the pool insight's imageBuild: where the build of the pool's
// target configuration stands, in words that name the objects to look at.
func Status(p *Pool, target string, failure Failure, now time.Time) *insightsv1alpha1.PoolImageBuild {
	s := &insightsv1alpha1.PoolImageBuild{
		MachineOSConfig: p.Config.Name,
		State:           insightsv1alpha1.ImageBuildState(p.State()),
		Image:           text.Truncate(p.Image(), insightsv1alpha1.ImageBuildImageMaxLength),
	}
	if p.Build != nil {
		s.MachineOSBuild = p.Build.Name
		since := metav1.NewTime(p.Since())
		s.Since = &since
	}
	if left, ok := p.Left(now); ok {
		s.EstimatedToComplete = &metav1.Duration{Duration: left}
	}
	s.Message = text.Truncate(message(p, target, failure), insightsv1alpha1.ImageBuildMessageMaxLength)
	return s
}

// Left is how much longer the build is expected to take, in whole minutes
// and at least one, while it is prepared or building and the pool has past
// builds to tell.
func (p *Pool) Left(now time.Time) (time.Duration, bool) {
	if s := p.State(); s != Prepared && s != Building {
		return 0, false
	}
	expected, ok := p.Expected()
	if !ok {
		return 0, false
	}
	left := expected - now.Sub(p.Since())
	if left < time.Minute {
		return time.Minute, true
	}
	return ((left + time.Minute - 1) / time.Minute) * time.Minute, true
}

func message(p *Pool, target string, failure Failure) string {
	if p.Build == nil {
		return fmt.Sprintf("No MachineOSBuild yet for configuration %s; the machine-config operator builds the pool's OS image before any node takes the configuration", target)
	}
	b := p.Build.Name
	job := Namespace + "/" + p.JobName()
	switch p.State() {
	case Prepared:
		return fmt.Sprintf("MachineOSBuild %s is prepared; its build Job %s waits to run", b, job)
	case Building:
		return fmt.Sprintf("MachineOSBuild %s builds the OS image for configuration %s in Job %s", b, target, job)
	case Succeeded:
		if p.Ready() {
			return fmt.Sprintf("MachineOSBuild %s built the image; the pool's nodes take it with configuration %s", b, target)
		}
		return fmt.Sprintf("MachineOSBuild %s succeeded; MachineOSConfig %s has not yet taken its image", b, p.Config.Name)
	case Failed:
		if failure.Words == "" {
			return fmt.Sprintf("MachineOSBuild %s failed; its build Job %s left no failed pod to say why", b, job)
		}
		return fmt.Sprintf("MachineOSBuild %s failed: %s", b, LastLine(failure.Words))
	case Interrupted:
		return fmt.Sprintf("MachineOSBuild %s was interrupted: its build Job %s was deleted before it finished", b, job)
	}
	return fmt.Sprintf("MachineOSBuild %s for configuration %s has not started", b, target)
}
