package updateevents

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/scheme"
)

// eventLogLevel is the verbosity at which recorded Events are also logged:
// they are in the cluster already, the log copy is for debugging.
const eventLogLevel klog.Level = 2

// NewRecorder returns a recorder that writes Events about insights through
// client as component, and a function that stops it.
//
// The recorder takes the kind and API version of the object an Event is about
// from the insights' scheme, because objects from typed informers carry no
// TypeMeta. Events about a cluster-scoped object, such as every insight, go to
// the namespace "default".
func NewRecorder(client kubernetes.Interface, component string) (record.EventRecorder, func()) {
	broadcaster := record.NewBroadcaster()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	broadcaster.StartStructuredLogging(eventLogLevel)
	return broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: component}), broadcaster.Shutdown
}
