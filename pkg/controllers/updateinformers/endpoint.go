package updateinformers

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	coreclient "k8s.io/client-go/kubernetes/typed/core/v1"
	discoveryclient "k8s.io/client-go/kubernetes/typed/discovery/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
)

// defaultServicePort is the port of an informer's Service when its
// UpdateInformer does not say, as the API defaults it.
const defaultServicePort = 443

// unreachableError is an informer that cannot be called at all: its Service
// or an endpoint of it is missing, or its CA bundle is unusable.
type unreachableError struct{ err error }

func (e *unreachableError) Error() string { return e.err.Error() }
func (e *unreachableError) Unwrap() error { return e.err }

func unreachable(format string, args ...any) error {
	return &unreachableError{fmt.Errorf(format, args...)}
}

// clientConfig says how to reach an informer. A Service is reached as the
// API server's aggregator reaches one with endpoint routing: at an address
// of a ready endpoint of its EndpointSlices, on the port its Service maps
// the informer's port to, verifying the name <service>.<namespace>.svc, so
// that no cluster DNS is needed. The Service is read because only it maps
// its port to the endpoints' (a port name, or a target port number).
//
// The Service and its EndpointSlices are read from the API server (a GET
// and a LIST by the service-name label) just before the informer is
// called, not from a cache, which would hold every Service and EndpointSlice
// of the cluster for a handful of informers. Each informer's own are
// watched too (watchService), only to sync it when they change.
func clientConfig(ctx context.Context, informer *insightsv1alpha1.UpdateInformer, services coreclient.ServicesGetter, endpointSlices discoveryclient.EndpointSlicesGetter) (client.Config, error) {
	spec := informer.Spec.ClientConfig
	if spec.URL != nil {
		return client.Config{URL: *spec.URL, CABundle: spec.CABundle}, nil
	}
	if spec.Service == nil {
		return client.Config{}, unreachable("the UpdateInformer names neither a service nor a url")
	}
	ref := spec.Service
	port := int32(defaultServicePort)
	if ref.Port != nil {
		port = *ref.Port
	}
	path := ""
	if ref.Path != nil {
		path = *ref.Path
	}
	serverName := ref.Name + "." + ref.Namespace + ".svc"
	config := client.Config{
		URL:        "https://" + net.JoinHostPort(serverName, strconv.Itoa(int(port))) + path,
		ServerName: serverName,
		CABundle:   spec.CABundle,
	}

	service, err := services.Services(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return config, unreachable("Service %s/%s does not exist", ref.Namespace, ref.Name)
	}
	if err != nil {
		return config, err
	}
	servicePort, ok := findServicePort(service, port)
	if !ok {
		return config, unreachable("Service %s/%s has no port %d", ref.Namespace, ref.Name, port)
	}
	sliceList, err := endpointSlices.EndpointSlices(ref.Namespace).List(ctx, metav1.ListOptions{
		LabelSelector: labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: ref.Name}).String(),
	})
	if err != nil {
		return config, err
	}
	address, ok := readyAddress(sliceList.Items, servicePort)
	if !ok {
		return config, unreachable("Service %s/%s has no ready endpoint for port %d", ref.Namespace, ref.Name, port)
	}
	config.DialAddress = address
	return config, nil
}

func findServicePort(service *corev1.Service, port int32) (corev1.ServicePort, bool) {
	for _, p := range service.Spec.Ports {
		if p.Port == port && (p.Protocol == "" || p.Protocol == corev1.ProtocolTCP) {
			return p, true
		}
	}
	return corev1.ServicePort{}, false
}

// readyAddress is the first, in a stable order, of the ready endpoints'
// addresses with the port the Service port maps to, as host:port: the same
// endpoint while it stays ready, so that connections are reused.
func readyAddress(endpointSlices []discoveryv1.EndpointSlice, servicePort corev1.ServicePort) (string, bool) {
	var addresses []string
	for _, slice := range endpointSlices {
		if slice.AddressType != discoveryv1.AddressTypeIPv4 && slice.AddressType != discoveryv1.AddressTypeIPv6 {
			continue
		}
		port, ok := endpointPort(slice.Ports, servicePort)
		if !ok {
			continue
		}
		for _, e := range slice.Endpoints {
			if e.Conditions.Ready != nil && !*e.Conditions.Ready || len(e.Addresses) == 0 {
				continue
			}
			addresses = append(addresses, net.JoinHostPort(e.Addresses[0], strconv.Itoa(int(port))))
		}
	}
	if len(addresses) == 0 {
		return "", false
	}
	slices.Sort(addresses)
	return addresses[0], true
}

// endpointPort is the port of a slice that serves the Service port: the
// one of the same name, as the EndpointSlice controller names them.
func endpointPort(ports []discoveryv1.EndpointPort, servicePort corev1.ServicePort) (int32, bool) {
	for _, p := range ports {
		name := ""
		if p.Name != nil {
			name = *p.Name
		}
		if name != servicePort.Name || p.Port == nil {
			continue
		}
		if p.Protocol != nil && *p.Protocol != corev1.ProtocolTCP {
			continue
		}
		return *p.Port, true
	}
	return 0, false
}
