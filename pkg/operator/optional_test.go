package operator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// fakeDiscovery serves some resources of the machine-config operator's API,
// or fails.
type fakeDiscovery struct {
	mu        sync.Mutex
	resources []string
	err       error
}

func discoveryServing(resources ...string) *fakeDiscovery {
	return &fakeDiscovery{resources: resources}
}

func (d *fakeDiscovery) set(err error, resources ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.resources, d.err = resources, err
}

func (d *fakeDiscovery) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return nil, d.err
	}
	if groupVersion != machineconfigurationv1.GroupVersion.String() || len(d.resources) == 0 {
		return nil, apierrors.NewNotFound(schema.GroupResource{}, groupVersion)
	}
	list := &metav1.APIResourceList{GroupVersion: groupVersion}
	for _, r := range d.resources {
		list.APIResources = append(list.APIResources, metav1.APIResource{Name: r})
	}
	return list, nil
}

func TestOptionalAPIMissing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		served []string
		want   []string
	}{
		{name: "served whole", served: []string{"machineconfigpools", "machineconfigs", "kubeletconfigs"}},
		{name: "not served at all", want: []string{"machineconfigpools.machineconfiguration.openshift.io/v1", "machineconfigs.machineconfiguration.openshift.io/v1"}},
		{name: "served in part", served: []string{"machineconfigs"}, want: []string{"machineconfigpools.machineconfiguration.openshift.io/v1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			missing, err := machineConfigurationAPI.missing(discoveryServing(tc.served...))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, missing); diff != "" {
				t.Errorf("missing (-want +got):\n%s", diff)
			}
		})
	}
}

// gate records what whenServed reports.
type gate struct {
	mu      sync.Mutex
	off     []string
	started int
}

func (g *gate) switchOff(why string, notServed bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.off = append(g.off, fmt.Sprintf("%s (not served: %t)", why, notServed))
}
func (g *gate) start() { g.mu.Lock(); defer g.mu.Unlock(); g.started++ }
func (g *gate) state() ([]string, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.off...), g.started
}

// A controller whose API is served starts at once; one whose API is not is
// off, says why (again when the reason changes), and starts once, when the
// API appears. In a bubble (testing/synctest): the looking again runs on
// the bubble's clock, and the test waits until it is idle between steps.
func TestWhenServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		const interval = 10 * time.Second

		served := &gate{}
		whenServed(ctx, discoveryServing("machineconfigpools", "machineconfigs"), machineConfigurationAPI, interval, "Node", served.switchOff, served.start)
		if off, started := served.state(); len(off) != 0 || started != 1 {
			t.Errorf("with the API served: off %q, started %d times; want started once", off, started)
		}

		d := discoveryServing()
		g := &gate{}
		whenServed(ctx, d, machineConfigurationAPI, interval, "Node", g.switchOff, g.start)
		if off, started := g.state(); started != 0 || len(off) != 1 {
			t.Fatalf("without the API: off %q, started %d times; want off and not started", off, started)
		}
		d.set(errors.New("connection refused"))
		// Looked at again once an interval has passed.
		time.Sleep(interval)
		synctest.Wait()
		if off, started := g.state(); started != 0 || len(off) != 2 {
			t.Fatalf("once discovery fails: off %q, started %d times; want a second reason and not started", off, started)
		}
		d.set(nil, "machineconfigpools", "machineconfigs")
		time.Sleep(interval)
		synctest.Wait()
		if _, started := g.state(); started != 1 {
			t.Fatalf("once the API is served: started %d times, want once", started)
		}

		off, _ := g.state()
		want := []string{
			"the cluster does not serve machineconfigpools.machineconfiguration.openshift.io/v1 and machineconfigs.machineconfiguration.openshift.io/v1 (not served: true)",
			"cannot tell whether the cluster serves machineconfiguration.openshift.io/v1: connection refused (not served: false)",
		}
		if diff := cmp.Diff(want, off); diff != "" {
			t.Errorf("reasons (-want +got):\n%s", diff)
		}
		// Started, it no longer looks: many intervals later, it has not
		// started again.
		time.Sleep(100 * interval)
		synctest.Wait()
		if _, started := g.state(); started != 1 {
			t.Errorf("started %d times, want once", started)
		}
	})
}
