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
// "watch nodes", and "(forbidden)" after those the API server refused. A
// request is counted when its answer starts, which for a watch is when it
// opens: a watch opened before a count began is not in it, however long it
// stays open.
type requestCounter struct {
	mu     sync.Mutex
	byKind map[string]int
}

// wrap is a rest.Config wrapper that counts the requests going through it.
func (c *requestCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		kind := apiVerbOf(req) + " " + apiResourceOf(req.URL)
		if err == nil && resp.StatusCode == http.StatusForbidden {
			kind += forbidden
		}
		c.add(kind)
		return resp, err
	})
}

// forbidden follows the kind of a request the API server refused.
const forbidden = " (forbidden)"

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

// count is how many requests of one kind, such as "watch pods", were made.
func (c *requestCounter) count(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byKind[kind]
}

// refused are the kinds of the requests the API server refused.
func (c *requestCounter) refused() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for k := range c.byKind {
		if strings.HasSuffix(k, forbidden) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
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
	if n == 0 {
		return "no request"
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
