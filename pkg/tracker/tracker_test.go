package tracker

import (
	"context"
	"errors"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openshift/library-go/pkg/controller/factory"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
)

var start = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)

type observation struct {
	Controller string
	Took       time.Duration
	Failed     bool
}

// trackerTest is a tracker on a fake clock that remembers what it observed
// and how often it said problems changed.
type trackerTest struct {
	*Tracker
	clock        *clocktesting.FakeClock
	observations []observation
	changes      int
}

func newTrackerTest() *trackerTest {
	tt := &trackerTest{clock: clocktesting.NewFakeClock(start)}
	tt.Tracker = New(tt.clock, func(controller string, took time.Duration, err error) {
		tt.observations = append(tt.observations, observation{Controller: controller, Took: took, Failed: err != nil})
	})
	tt.OnChange(func() { tt.changes++ })
	return tt
}

// run runs a sync of key through the tracker, taking took and ending with err.
func (tt *trackerTest) run(t *testing.T, controller, key string, took time.Duration, err error) {
	t.Helper()
	sync := tt.Sync(controller, func(context.Context, factory.SyncContext) error {
		tt.clock.Step(took)
		return err
	})
	syncCtx := controllertest.NewSyncContext(key)
	defer syncCtx.Q.ShutDown()
	if got := sync(context.Background(), syncCtx); !errors.Is(got, err) {
		t.Fatalf("the wrapped sync returned %v, want %v", got, err)
	}
}

var (
	conflict = apierrors.NewConflict(schema.GroupResource{Group: "openshift.muller.dev", Resource: "nodeprogressinsights"}, "a", errors.New("the object has been modified"))
	invalid  = apierrors.NewInvalid(schema.GroupKind{Group: "openshift.muller.dev", Kind: "NodeProgressInsight"}, "a",
		field.ErrorList{field.TooLong(field.NewPath("status", "message"), "", 100)})
	refused = errors.New("dial tcp 127.0.0.1:6443: connect: connection refused")
)

func TestTrackerFailures(t *testing.T) {
	tt := newTrackerTest()

	tt.run(t, "Node", "node/a", time.Second, refused)
	tt.run(t, "Node", "node/a", time.Second, refused)
	tt.run(t, "Node", "node/b", time.Second, fmtWrap(invalid))
	tt.run(t, "Node", "node/c", time.Second, refused)
	tt.run(t, "ClusterVersion", "version", time.Second, nil)

	want := []Problem{
		{Controller: "Node", Kind: SyncFailing, Since: start.Add(time.Second), Key: "node/a", Keys: 2, Detail: refused.Error()},
		{Controller: "Node", Kind: WriteRejected, Since: start.Add(3 * time.Second), Key: "node/b", Keys: 1, Detail: fmtWrap(invalid).Error()},
	}
	if diff := cmp.Diff(want, sortedProblems(tt.Problems())); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if tt.changes != 3 {
		t.Errorf("%d changes were signalled, want 3: a key failing again is no news", tt.changes)
	}

	tt.run(t, "Node", "node/a", time.Second, nil)
	tt.run(t, "Node", "node/b", time.Second, nil)
	want = []Problem{
		{Controller: "Node", Kind: SyncFailing, Since: start.Add(4 * time.Second), Key: "node/c", Keys: 1, Detail: refused.Error()},
	}
	if diff := cmp.Diff(want, sortedProblems(tt.Problems())); diff != "" {
		t.Errorf("after node/a and node/b synced, problems (-want +got):\n%s", diff)
	}
	if tt.changes != 5 {
		t.Errorf("%d changes were signalled, want 5", tt.changes)
	}

	wantObserved := []observation{
		{"Node", time.Second, true}, {"Node", time.Second, true}, {"Node", time.Second, true}, {"Node", time.Second, true},
		{"ClusterVersion", time.Second, false}, {"Node", time.Second, false}, {"Node", time.Second, false},
	}
	if diff := cmp.Diff(wantObserved, tt.observations); diff != "" {
		t.Errorf("observed syncs (-want +got):\n%s", diff)
	}
}

// A source that cannot be read is a problem of its own kind from its first
// failed read to the next good one, whatever the controller's syncs do.
func TestTrackerReadSource(t *testing.T) {
	tt := newTrackerTest()

	tt.ReadSource("Alerts", "alerts", refused)
	tt.clock.Step(time.Minute)
	tt.ReadSource("Alerts", "alerts", refused)
	tt.run(t, "Alerts", "version", time.Second, nil)
	want := []Problem{
		{Controller: "Alerts", Kind: SourceUnreachable, Since: start, Key: "alerts", Keys: 1, Detail: refused.Error()},
	}
	if diff := cmp.Diff(want, sortedProblems(tt.Problems())); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}

	tt.ReadSource("Alerts", "alerts", nil)
	if problems := tt.Problems(); len(problems) != 0 {
		t.Errorf("after a good read, problems %v, want none", problems)
	}
	if tt.changes != 2 {
		t.Errorf("%d changes were signalled, want 2: the problem began and ended", tt.changes)
	}
}

// A sync that lost a race is requeued after RaceDelay and counts as
// neither a failure nor a problem.
func TestTrackerRequeuesALostRace(t *testing.T) {
	tt := newTrackerTest()
	sync := tt.Sync("ClusterVersion", func(context.Context, factory.SyncContext) error {
		return fmtWrap(conflict)
	})
	syncCtx := controllertest.NewSyncContext("version")
	defer syncCtx.Q.ShutDown()
	if err := sync(context.Background(), syncCtx); err != nil {
		t.Errorf("the wrapped sync returned %v, want no error for a lost race", err)
	}
	if diff := cmp.Diff(map[any]time.Duration{"version": RaceDelay}, syncCtx.Q.AddedAfter); diff != "" {
		t.Errorf("queued again (-want +got):\n%s", diff)
	}
	if problems := tt.Problems(); len(problems) != 0 {
		t.Errorf("a lost race is a problem: %v", problems)
	}
	if diff := cmp.Diff([]observation{{"ClusterVersion", 0, false}}, tt.observations); diff != "" {
		t.Errorf("observed syncs (-want +got):\n%s", diff)
	}
}

// Failures carried over a restart keep their start, whether the controller
// fails again before or after they are inherited, and end once the
// controller has worked through its queue without them.
func TestTrackerInherits(t *testing.T) {
	tt := newTrackerTest()
	before := start.Add(-time.Hour)
	tt.run(t, "Node", "node/a", time.Second, refused)
	tt.Inherit([]Problem{
		{Controller: "Node", Kind: SyncFailing, Since: before},
		{Controller: "ClusterVersion", Kind: WriteRejected, Since: before},
	})
	want := []Problem{
		{Controller: "ClusterVersion", Kind: WriteRejected, Since: before},
		{Controller: "Node", Kind: SyncFailing, Since: before, Key: "node/a", Keys: 1, Detail: refused.Error()},
	}
	if diff := cmp.Diff(want, sortedProblems(tt.Problems())); diff != "" {
		t.Errorf("problems once inherited (-want +got):\n%s", diff)
	}

	tt.run(t, "ClusterVersion", "version", time.Second, fmtWrap(invalid))
	tt.run(t, "Node", "node/a", time.Second, refused)
	want = []Problem{
		{Controller: "ClusterVersion", Kind: WriteRejected, Since: before, Key: "version", Keys: 1, Detail: fmtWrap(invalid).Error()},
		{Controller: "Node", Kind: SyncFailing, Since: before, Key: "node/a", Keys: 1, Detail: refused.Error()},
	}
	if diff := cmp.Diff(want, sortedProblems(tt.Problems())); diff != "" {
		t.Errorf("problems once they recurred (-want +got):\n%s", diff)
	}

	tt.run(t, "ClusterVersion", "version", time.Second, nil)
	tt.run(t, "Node", "node/a", time.Second, nil)
	if problems := tt.Problems(); len(problems) != 0 {
		t.Errorf("problems once every key synced: %v", problems)
	}
}

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want Kind
	}{
		{"invalid", invalid, WriteRejected},
		{"invalid, wrapped", fmtWrap(invalid), WriteRejected},
		{"forbidden", apierrors.NewForbidden(schema.GroupResource{Resource: "nodeprogressinsights"}, "a", errors.New("denied by policy")), WriteRejected},
		{"too large", apierrors.NewRequestEntityTooLargeError("limit is 3145728"), WriteRejected},
		{"conflict", conflict, SyncFailing},
		{"timeout", apierrors.NewServerTimeout(schema.GroupResource{Resource: "nodeprogressinsights"}, "update", 1), SyncFailing},
		{"not an API error", refused, SyncFailing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := kindOf(tc.err); got != tc.want {
				t.Errorf("kindOf(%v) = %s, want %s", tc.err, got, tc.want)
			}
		})
	}
}

func TestTrackerCaches(t *testing.T) {
	tt := newTrackerTest()
	nodesSynced, poolsSynced := false, false
	tt.WaitsFor("Node", map[string]cache.InformerSynced{
		"nodes":              func() bool { return nodesSynced },
		"machineconfigpools": func() bool { return poolsSynced },
	})
	tt.WaitsFor("ClusterVersion", map[string]cache.InformerSynced{"clusterversions": func() bool { return true }})
	tt.clock.Step(time.Minute)

	want := []Problem{{Controller: "Node", Kind: CacheNotSynced, Since: start, Detail: "machineconfigpools, nodes"}}
	if diff := cmp.Diff(want, tt.Problems()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}

	nodesSynced = true
	want[0].Detail = "machineconfigpools"
	if diff := cmp.Diff(want, tt.Problems()); diff != "" {
		t.Errorf("with nodes synced, problems (-want +got):\n%s", diff)
	}

	poolsSynced = true
	if got := tt.Problems(); len(got) != 0 {
		t.Errorf("with every cache synced, problems = %v, want none", got)
	}
}

func fmtWrap(err error) error {
	return errors.Join(errors.New("updating the status of NodeProgressInsight a"), err)
}

func sortedProblems(problems []Problem) []Problem {
	out := append([]Problem(nil), problems...)
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Since.Equal(out[j].Since) {
			return out[i].Since.Before(out[j].Since)
		}
		return out[i].Reason() < out[j].Reason()
	})
	return out
}
