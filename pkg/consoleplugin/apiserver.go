package consoleplugin

import (
	"context"
	"fmt"
	"sync/atomic"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// APIServerName is the one APIServer configuration of a cluster.
const APIServerName = "cluster"

// APIServerProfile follows the TLS security profile of the cluster's
// APIServer, as the cluster's own servers do: a change applies to the next
// connection (TLSConfig asks Current at each handshake), without a restart.
type APIServerProfile struct {
	current atomic.Pointer[TLSProfile]
}

// FollowAPIServerProfile watches the APIServer until ctx ends and returns
// once it has been read, so that the server never serves a connection with
// a profile other than the cluster's. A cluster without it is served the
// Intermediate profile, as library-go serves it.
func FollowAPIServerProfile(ctx context.Context, client configclient.Interface) (*APIServerProfile, error) {
	p := &APIServerProfile{}
	factory := configinformers.NewSharedInformerFactoryWithOptions(client, 0,
		configinformers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", APIServerName).String()
		}))
	informer := factory.Config().V1().APIServers().Informer()
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { p.set(obj) },
		UpdateFunc: func(_, obj interface{}) { p.set(obj) },
		DeleteFunc: func(interface{}) { p.set(nil) },
	}); err != nil {
		return nil, err
	}
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		return nil, fmt.Errorf("reading the APIServer %s's TLS security profile: %w", APIServerName, context.Cause(ctx))
	}
	if p.current.Load() == nil {
		p.set(nil)
	}
	return p, nil
}

// Current is the profile to serve the next connection with.
func (p *APIServerProfile) Current() TLSProfile {
	return *p.current.Load()
}

// set takes the profile of obj, an APIServer, or the default where obj is
// none. A profile the server cannot take leaves the one it serves with.
func (p *APIServerProfile) set(obj interface{}) {
	var spec *configv1.TLSSecurityProfile
	if apiServer, ok := obj.(*configv1.APIServer); ok {
		spec = apiServer.Spec.TLSSecurityProfile
	}
	profile, err := TLSProfileOf(spec)
	if err != nil {
		klog.ErrorS(err, "Keeping the TLS security profile served until now", "apiServer", APIServerName)
		if p.current.Load() != nil {
			return
		}
		profile, _ = TLSProfileOf(nil)
	}
	if previous := p.current.Swap(&profile); previous == nil || !previous.Equal(profile) {
		klog.InfoS("Serving with the APIServer's TLS security profile", "apiServer", APIServerName, "profile", profileType(spec), "tls", profile.String())
	}
}

func profileType(spec *configv1.TLSSecurityProfile) configv1.TLSProfileType {
	if spec == nil || spec.Type == "" {
		return "default (Intermediate)"
	}
	return spec.Type
}
