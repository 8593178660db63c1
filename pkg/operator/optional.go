package operator

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// optionalAPI is an API that a controller needs and that not every cluster
// serves: a hosted control plane, MicroShift or a plain Kubernetes cluster has
// no MachineConfigPools, for example. Without it the controller is off, which
// is no problem of the operator's: there is nothing for it to report.
type optionalAPI struct {
	groupVersion schema.GroupVersion
	// resources must all be served.
	resources []string
}

// resourceLister is the part of discovery that tells what an API serves.
type resourceLister interface {
	ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error)
}

// missing returns what of the API the cluster does not serve, empty when it
// serves all of it. An error means the API server could not tell.
func (api optionalAPI) missing(client resourceLister) ([]string, error) {
	list, err := client.ServerResourcesForGroupVersion(api.groupVersion.String())
	if apierrors.IsNotFound(err) {
		return api.names(api.resources), nil
	}
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, r := range api.resources {
		if !slices.ContainsFunc(list.APIResources, func(served metav1.APIResource) bool { return served.Name == r }) {
			missing = append(missing, r)
		}
	}
	return api.names(missing), nil
}

func (api optionalAPI) names(resources []string) []string {
	var names []string
	for _, r := range resources {
		names = append(names, fmt.Sprintf("%s.%s/%s", r, api.groupVersion.Group, api.groupVersion.Version))
	}
	return names
}

// whenServed calls start once the cluster serves api, at once if it does
// already, and otherwise after looking again every interval until ctx ends.
// While it waits, off says why the controller is off, and whether that is
// because the cluster does not serve api (rather than that it could not
// tell).
func whenServed(ctx context.Context, client resourceLister, api optionalAPI, interval time.Duration, controller string, off func(why string, notServed bool), start func()) {
	why := func(missing []string, err error) string {
		if err != nil {
			return fmt.Sprintf("cannot tell whether the cluster serves %s: %v", api.groupVersion, err)
		}
		return "the cluster does not serve " + strings.Join(missing, " and ")
	}
	missing, err := api.missing(client)
	if err == nil && len(missing) == 0 {
		start()
		return
	}
	reason := why(missing, err)
	off(reason, err == nil)
	klog.InfoS("A controller is off: it starts once the cluster serves what it needs", "controller", controller, "why", reason, "lookingAgainEvery", interval)
	go func() {
		_ = wait.PollUntilContextCancel(ctx, interval, false, func(context.Context) (bool, error) {
			missing, err := api.missing(client)
			if err != nil || len(missing) > 0 {
				if now := why(missing, err); now != reason {
					reason = now
					off(reason, err == nil)
				}
				return false, nil
			}
			klog.InfoS("Starting a controller that was off: the cluster now serves what it needs", "controller", controller)
			start()
			return true, nil
		})
	}()
}
