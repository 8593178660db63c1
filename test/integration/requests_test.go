package integration

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// requestCounter counts every API request of a client, reads included, by
// verb and resource as RBAC names them: "get configmaps", "list pods",
// "watch nodes". A request is counted when it starts: a watch opened
// before a count began is not in it, however long it stays open.
type requestCounter struct {
	mu     sync.Mutex
	byKind map[string]int
}

// wrap is a rest.Config wrapper that counts the requests going through it.
func (c *requestCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		c.add(apiVerbOf(req) + " " + apiResourceOf(req.URL))
		return rt.RoundTrip(req)
	})
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

func (c *requestCounter) add(kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKind == nil {
		c.byKind = map[string]int{}
	}
	c.byKind[kind]++
}

func (c *requestCounter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.byKind {
		n += k
	}
	return n
}

func (c *requestCounter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byKind = nil
}

// String lists the requests by kind, the most frequent first.
func (c *requestCounter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	kinds := slices.SortedFunc(maps.Keys(c.byKind), func(a, b string) int {
		if c.byKind[a] != c.byKind[b] {
			return c.byKind[b] - c.byKind[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(kinds))
	n := 0
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", c.byKind[k], k)
		n += c.byKind[k]
	}
	return fmt.Sprintf("%d requests (%s)", n, strings.Join(parts, ", "))
}

// apiVerbOf is the verb of an API request as RBAC names it: a GET of a
// collection is a list, or a watch when it asks for one.
func apiVerbOf(req *http.Request) string {
	_, object := apiTargetOf(req.URL)
	switch req.Method {
	case http.MethodGet, http.MethodHead:
		switch {
		case object:
			return "get"
		case req.URL.Query().Get("watch") == "true" || req.URL.Query().Get("watch") == "1":
			return "watch"
		default:
			return "list"
		}
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	case http.MethodPatch:
		return "patch"
	case http.MethodDelete:
		if object {
			return "delete"
		}
		return "deletecollection"
	}
	return req.Method
}
