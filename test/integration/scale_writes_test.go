package integration

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// writeCounter counts the write requests of a client, by kind of write.
type writeCounter struct {
	n      atomic.Int64
	mu     sync.Mutex
	byKind map[string]int
	// started holds when each write began, by kind.
	started map[string][]time.Time
}

// wrap is a rest.Config wrapper that counts the writes going through it.
func (c *writeCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return &countingTransport{next: rt, counter: c}
}

type countingTransport struct {
	next    http.RoundTripper
	counter *writeCounter
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	switch req.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		kind := req.Method + " " + apiResourceOf(req.URL)
		// A write from a cache that lags the operator's previous write is
		// refused and retried: told apart, it explains an extra write.
		if err == nil && resp.StatusCode == http.StatusConflict {
			kind += " (conflict)"
		}
		t.counter.add(kind, start)
	}
	return resp, err
}

func (c *writeCounter) add(kind string, start time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n.Add(1)
	if c.byKind == nil {
		c.byKind, c.started = map[string]int{}, map[string][]time.Time{}
	}
	c.byKind[kind]++
	c.started[kind] = append(c.started[kind], start)
}

func (c *writeCounter) total() int64 { return c.n.Load() }

// count is how many writes of one kind, such as "PUT nodes", were made.
func (c *writeCounter) count(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byKind[kind]
}

// shortestGap is the shortest time between the starts of two writes of a
// kind, and how many there were.
func (c *writeCounter) shortestGap(kind string) (time.Duration, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	all := slices.SortedFunc(slices.Values(c.started[kind]), time.Time.Compare)
	shortest := time.Duration(-1)
	for i := 1; i < len(all); i++ {
		if gap := all[i].Sub(all[i-1]); shortest < 0 || gap < shortest {
			shortest = gap
		}
	}
	return shortest, len(all)
}

func (c *writeCounter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n.Store(0)
	c.byKind, c.started = nil, nil
}

// settle waits until no write came for quiet.
func (c *writeCounter) settle(b *testing.B, quiet time.Duration) {
	b.Helper()
	deadline := time.Now().Add(time.Minute)
	last, lastChange := c.total(), time.Now()
	for time.Since(lastChange) < quiet {
		if time.Now().After(deadline) {
			b.Fatalf("the operator was still writing after a minute: %s", c)
		}
		time.Sleep(100 * time.Millisecond)
		if n := c.total(); n != last {
			last, lastChange = n, time.Now()
		}
	}
}

// String lists the writes by kind, the most frequent first.
func (c *writeCounter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	kinds := make([]string, 0, len(c.byKind))
	for k := range c.byKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return c.byKind[kinds[i]] > c.byKind[kinds[j]] })
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", c.byKind[k], k)
	}
	return fmt.Sprintf("%d writes (%s)", c.total(), strings.Join(parts, ", "))
}

// apiResourceOf names the resource, and subresource, of an API request:
// /apis/<group>/<version>/[namespaces/<ns>/]<resource>[/<name>[/<subresource>]].
func apiResourceOf(u *url.URL) string {
	resource, _ := apiTargetOf(u)
	return resource
}

// apiTargetOf names the resource, and subresource, of an API request, as
// apiResourceOf does, and says whether the request is of one object rather
// than a collection. A request outside resources (discovery) is named by
// its path, and counts as one object.
func apiTargetOf(u *url.URL) (resource string, object bool) {
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch {
	case len(parts) > 2 && parts[0] == "api":
		parts = parts[2:]
	case len(parts) > 3 && parts[0] == "apis":
		parts = parts[3:]
	default:
		return u.Path, true
	}
	if len(parts) > 2 && parts[0] == "namespaces" {
		parts = parts[2:]
	}
	if len(parts) > 2 {
		return parts[0] + "/" + parts[2], true
	}
	return parts[0], len(parts) == 2
}
