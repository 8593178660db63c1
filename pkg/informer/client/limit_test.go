package client_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// held answers once release is closed, saying on arrived that a request
// came.
func held(arrived chan<- struct{}, release <-chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		w.Header().Set("Content-Type", protocol.ContentType)
		_, _ = w.Write([]byte(answerBody(protocol.ResponseSuccess, "")))
	}
}

// With every slot taken, a request waits for one before it is sent.
func TestALimitHoldsRequestsBackWhileItsSlotsAreTaken(t *testing.T) {
	limit := client.NewLimit(1)
	clock := testingclock.NewFakeClock(time.Now())
	slowArrived, fastArrived := make(chan struct{}, 1), make(chan struct{}, 1)
	releaseSlow, releaseFast := make(chan struct{}), make(chan struct{})
	close(releaseFast)
	slow := newClient(t, held(slowArrived, releaseSlow), clock, limit)
	fast := newClient(t, held(fastArrived, releaseFast), clock, limit)

	slowDone, fastDone := make(chan error, 1), make(chan error, 1)
	go func() { _, err := slow.StatusInsights(context.Background(), request, time.Minute); slowDone <- err }()
	<-slowArrived
	go func() { _, err := fast.StatusInsights(context.Background(), request, time.Minute); fastDone <- err }()

	// The fast client's request is not sent while the slow one holds the
	// only slot: nothing can arrive, however long this waits.
	select {
	case <-fastArrived:
		t.Fatal("a request was sent while the limit's only slot was taken")
	case <-time.After(100 * time.Millisecond):
	}
	close(releaseSlow)
	if err := <-slowDone; err != nil {
		t.Fatalf("the slow call: %v", err)
	}
	<-fastArrived
	if err := <-fastDone; err != nil {
		t.Fatalf("the fast call, once the slot was free: %v", err)
	}
}

// A client waiting after Wait holds no slot: another client's call goes
// through meanwhile.
func TestAClientWaitingAfterWaitHoldsNoSlot(t *testing.T) {
	limit := client.NewLimit(1)
	clock := testingclock.NewFakeClock(time.Now())
	var waitingCalls, otherCalls atomic.Int32
	waiting := newClient(t, sequence(&waitingCalls, answerBody(protocol.ResponseWait, ""), answerBody(protocol.ResponseSuccess, "")), clock, limit)
	other := newClient(t, sequence(&otherCalls, answerBody(protocol.ResponseSuccess, "")), clock, limit)

	done := make(chan error, 1)
	go func() { _, err := waiting.StatusInsights(context.Background(), request, time.Minute); done <- err }()
	for !clock.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
	if _, err := other.StatusInsights(context.Background(), request, time.Minute); err != nil {
		t.Fatalf("a call while another client waits after Wait: %v", err)
	}
	clock.Step(client.WaitInterval)
	if err := <-done; err != nil {
		t.Fatalf("the waiting call: %v", err)
	}
	if got := waitingCalls.Load(); got != 2 {
		t.Errorf("the waiting client asked %d times, want 2", got)
	}
}

// A request waiting for a slot ends with its context, as unreachable.
func TestARequestWaitingForASlotEndsWithItsContext(t *testing.T) {
	limit := client.NewLimit(1)
	clock := testingclock.NewFakeClock(time.Now())
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	holder := newClient(t, held(arrived, release), clock, limit)
	var calls atomic.Int32
	waiter := newClient(t, sequence(&calls, answerBody(protocol.ResponseSuccess, "")), clock, limit)

	go func() { _, _ = holder.StatusInsights(context.Background(), request, time.Minute) }()
	<-arrived
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := waiter.StatusInsights(ctx, request, time.Minute)
	checkError(t, err, client.ReasonUnreachable, "updateInsights: while waiting to send the request: context canceled")
	if calls.Load() != 0 {
		t.Errorf("the informer got %d requests, want none", calls.Load())
	}
}
