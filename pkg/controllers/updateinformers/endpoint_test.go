package updateinformers

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
)

// mcoService maps port 443 to the endpoints' port named https, beside a
// port of another name.
func mcoService() *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "mco-informer"},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "metrics", Port: 9000}, {Name: "https", Port: 443, TargetPort: intstr.FromString("https")}}},
	}
}

func endpointSlice(name, service, portName string, port int32, endpoints ...discoveryv1.Endpoint) *discoveryv1.EndpointSlice {
	return &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{discoveryv1.LabelServiceName: service}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       []discoveryv1.EndpointPort{{Name: ptr.To(portName), Port: ptr.To(port)}},
		Endpoints:   endpoints,
	}
}

func endpoint(address string, ready bool) discoveryv1.Endpoint {
	return discoveryv1.Endpoint{Addresses: []string{address}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(ready)}}
}

// reads renders the requests made to the API server.
func reads(actions []clienttesting.Action) []string {
	var out []string
	for _, a := range actions {
		switch a := a.(type) {
		case clienttesting.GetAction:
			out = append(out, fmt.Sprintf("get %s %s/%s", a.GetResource().Resource, a.GetNamespace(), a.GetName()))
		case clienttesting.ListAction:
			out = append(out, fmt.Sprintf("list %s %s %s", a.GetResource().Resource, a.GetNamespace(), a.GetListRestrictions().Labels))
		default:
			out = append(out, a.GetVerb()+" "+a.GetResource().Resource)
		}
	}
	return out
}

func TestClientConfigReadsTheServiceAndItsEndpointSlicesAtCallTime(t *testing.T) {
	const serverName = "mco-informer.ns.svc"
	serviceReads := []string{"get services ns/mco-informer", "list endpointslices ns kubernetes.io/service-name=mco-informer"}
	ipv6 := endpointSlice("ipv6", "mco-informer", "https", 8443, endpoint("fd00::1", true))
	ipv6.AddressType = discoveryv1.AddressTypeIPv6
	fqdn := endpointSlice("fqdn", "mco-informer", "https", 8443, endpoint("informer.example.com", true))
	fqdn.AddressType = discoveryv1.AddressTypeFQDN
	unknownReadiness := endpointSlice("unknown", "mco-informer", "https", 8443, endpoint("10.0.0.4", true))
	unknownReadiness.Endpoints[0].Conditions.Ready = nil
	noPort := serviceInformer("mco", "ns", "mco-informer", ptr.To("/informer"))
	noPort.Spec.ClientConfig.Service.Port = nil

	for _, tc := range []struct {
		name     string
		informer *insightsv1alpha1.UpdateInformer
		objects  []runtime.Object
		// failGet makes the API server fail to answer the GET of the
		// Service.
		failGet bool

		want            client.Config
		wantErr         string
		wantUnreachable bool
		wantReads       []string
	}{{
		name:     "a url is used as given, without reads",
		informer: urlInformer("mco", "https://informer.example.com/base", []byte("ca")),
		want:     client.Config{URL: "https://informer.example.com/base", CABundle: []byte("ca")},
	}, {
		name:     "the first ready address, in a stable order, on the port the Service maps to",
		informer: serviceInformer("mco", "ns", "mco-informer", nil),
		objects: []runtime.Object{
			mcoService(),
			endpointSlice("a-not-ready", "mco-informer", "https", 8443, endpoint("10.0.0.1", false)),
			endpointSlice("b-other-port", "mco-informer", "metrics", 9090, endpoint("10.0.0.2", true)),
			endpointSlice("c-ready", "mco-informer", "https", 8443, endpoint("10.0.0.9", true), endpoint("10.0.0.3", true)),
			endpointSlice("d-other-service", "other", "https", 8443, endpoint("10.0.0.0", true)),
		},
		want:      client.Config{URL: "https://" + serverName + ":443", ServerName: serverName, DialAddress: "10.0.0.3:8443"},
		wantReads: serviceReads,
	}, {
		name:      "an endpoint of unknown readiness is ready",
		informer:  serviceInformer("mco", "ns", "mco-informer", nil),
		objects:   []runtime.Object{mcoService(), unknownReadiness},
		want:      client.Config{URL: "https://" + serverName + ":443", ServerName: serverName, DialAddress: "10.0.0.4:8443"},
		wantReads: serviceReads,
	}, {
		name:      "an IPv6 endpoint",
		informer:  serviceInformer("mco", "ns", "mco-informer", nil),
		objects:   []runtime.Object{mcoService(), ipv6},
		want:      client.Config{URL: "https://" + serverName + ":443", ServerName: serverName, DialAddress: "[fd00::1]:8443"},
		wantReads: serviceReads,
	}, {
		name:      "port 443 when the informer names none, and its path",
		informer:  noPort,
		objects:   []runtime.Object{mcoService(), endpointSlice("a", "mco-informer", "https", 8443, endpoint("10.0.0.1", true))},
		want:      client.Config{URL: "https://" + serverName + ":443/informer", ServerName: serverName, DialAddress: "10.0.0.1:8443"},
		wantReads: serviceReads,
	}, {
		name:            "no Service",
		informer:        serviceInformer("mco", "ns", "mco-informer", nil),
		wantErr:         "Service ns/mco-informer does not exist",
		wantUnreachable: true,
		wantReads:       serviceReads[:1],
	}, {
		name:     "a Service without the informer's port",
		informer: serviceInformer("mco", "ns", "mco-informer", nil),
		objects: []runtime.Object{&corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "mco-informer"},
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "metrics", Port: 9000}}},
		}},
		wantErr:         "Service ns/mco-informer has no port 443",
		wantUnreachable: true,
		wantReads:       serviceReads[:1],
	}, {
		name:     "no ready endpoint: not ready, of another port, or an FQDN",
		informer: serviceInformer("mco", "ns", "mco-informer", nil),
		objects: []runtime.Object{
			mcoService(),
			endpointSlice("a-not-ready", "mco-informer", "https", 8443, endpoint("10.0.0.1", false)),
			endpointSlice("b-other-port", "mco-informer", "metrics", 9090, endpoint("10.0.0.2", true)),
			fqdn,
		},
		wantErr:         "Service ns/mco-informer has no ready endpoint for port 443",
		wantUnreachable: true,
		wantReads:       serviceReads,
	}, {
		name:      "an API server that does not answer: an error to retry, not an unreachable informer",
		informer:  serviceInformer("mco", "ns", "mco-informer", nil),
		objects:   []runtime.Object{mcoService()},
		failGet:   true,
		wantErr:   "Internal error occurred: etcd is down",
		wantReads: serviceReads[:1],
	}} {
		t.Run(tc.name, func(t *testing.T) {
			kube := kubefake.NewSimpleClientset(tc.objects...)
			if tc.failGet {
				kube.PrependReactor("get", "services", func(clienttesting.Action) (bool, runtime.Object, error) {
					return true, nil, apierrors.NewInternalError(errors.New("etcd is down"))
				})
			}
			kube.ClearActions()
			config, err := clientConfig(context.Background(), tc.informer, kube.CoreV1(), kube.DiscoveryV1())
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			var u *unreachableError
			if got := errors.As(err, &u); got != tc.wantUnreachable {
				t.Errorf("unreachable %t, want %t (error %v)", got, tc.wantUnreachable, err)
			}
			if err == nil {
				if diff := cmp.Diff(tc.want, config); diff != "" {
					t.Errorf("config (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff(tc.wantReads, reads(kube.Actions())); diff != "" {
				t.Errorf("reads (-want +got):\n%s", diff)
			}
		})
	}
}
