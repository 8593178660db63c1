package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// UpdateInformer registers a component that contributes insights about
// updates over the UpdateInformer protocol: the operator discovers what it
// handles, asks it for insights while an update is pending (and for plans),
// and aggregates its answers into UpdateStatus and UpdatePlans.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=uinf
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="Online",type=string,JSONPath=`.status.conditions[?(@.type=="Online")].status`
// +kubebuilder:printcolumn:name="Last Contact",type=date,JSONPath=`.status.lastHeartbeatTime`
// +kubebuilder:printcolumn:name="Handlers",type=string,JSONPath=`.status.handlers[*].name`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Online")].reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="!(self.metadata.name in ['update-insights-operator', 'operator-lifecycle-manager'])",message="update-insights-operator and operator-lifecycle-manager name the operator's built-in informers"
type UpdateInformer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec says where the informer is served and whether to call it.
	// +required
	Spec UpdateInformerSpec `json:"spec"`
	// status is what the operator learned of the informer.
	// +optional
	Status UpdateInformerStatus `json:"status,omitempty"`
}

// InjectCAFromConfigMapAnnotation on an UpdateInformer names a ConfigMap,
// <namespace>/<name>, whose CA certificates (service-ca.crt, which the
// service CA fills in a ConfigMap annotated
// service.beta.openshift.io/inject-cabundle=true, else ca.crt) the operator
// copies into spec.clientConfig.caBundle and keeps current. An informer
// given by service names a ConfigMap of its Service's namespace.
const InjectCAFromConfigMapAnnotation = "update-insights.openshift.muller.dev/inject-ca-from-configmap"

// InjectCAFromSecretAnnotation on an UpdateInformer given by service names
// a Secret of its Service's namespace, <namespace>/<name>, whose CA
// certificates (ca.crt, else those of tls.crt) the operator copies into
// spec.clientConfig.caBundle and keeps current.
const InjectCAFromSecretAnnotation = "update-insights.openshift.muller.dev/inject-ca-from-secret"

// UpdateInformerSpec says where the informer is served and whether to call it.
type UpdateInformerSpec struct {
	// enabled says whether the operator calls the informer. An administrator
	// disables an informer that misbehaves; its insights then leave
	// UpdateStatus.
	// +optional
	// +kubebuilder:default=true
	Enabled *bool `json:"enabled,omitempty"`

	// clientConfig says how to reach the informer.
	// +required
	ClientConfig InformerClientConfig `json:"clientConfig"`
}

// InformerClientConfig says how to reach an informer: through a Service of
// the cluster, or at a URL.
//
// +kubebuilder:validation:XValidation:rule="has(self.service) != has(self.url)",message="exactly one of service and url must be set"
type InformerClientConfig struct {
	// service is the informer's Service, reached through its endpoints with
	// the TLS server name <name>.<namespace>.svc.
	// +optional
	Service *InformerServiceReference `json:"service,omitempty"`

	// url is the informer's base URL, for informers outside the cluster; it
	// must be https, with no user information (it would be sent as a
	// credential), query or fragment.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && url(self).getScheme() == 'https' && url(self).getHostname() != ''",message="url must be an https URL with a host"
	// +kubebuilder:validation:XValidation:rule="!self.matches('^[^:]*://[^/?#]*@')",message="url must hold no user information"
	// +kubebuilder:validation:XValidation:rule="!self.contains('?') && !self.contains('#')",message="url must have no query or fragment"
	URL *string `json:"url,omitempty"`

	// caBundle is the PEM bundle of CAs that verify the informer's serving
	// certificate; without one, the system's CAs do. The operator fills it
	// from the ConfigMap or Secret named by the inject-ca-from-configmap or
	// inject-ca-from-secret annotation.
	// +optional
	// +kubebuilder:validation:MaxLength=65536
	CABundle []byte `json:"caBundle,omitempty"`
}

// InformerServiceReference names the Service an informer is served by.
type InformerServiceReference struct {
	// namespace of the Service.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Namespace string `json:"namespace"`

	// name of the Service.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Name string `json:"name"`

	// port of the Service the informer is served on.
	// +optional
	// +kubebuilder:default=443
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// path is a prefix of the protocol's paths on the Service.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/[^\s?#]*$`
	Path *string `json:"path,omitempty"`
}

// UpdateInformerStatus is what the operator learned of an informer.
type UpdateInformerStatus struct {
	// conditions: Online says whether the last call succeeded (reasons
	// Unreachable, Failure, Waiting, DiscoveryFailed, Disabled when not),
	// Discovered whether discovery succeeded.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// handlers are what discovery said the informer handles.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=2
	Handlers []InformerHandler `json:"handlers,omitempty"`

	// apiLevel is the protocol level discovery returned.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	APILevel string `json:"apiLevel,omitempty"`

	// lastHeartbeatTime is when a call last succeeded.
	// +optional
	LastHeartbeatTime *metav1.Time `json:"lastHeartbeatTime,omitempty"`
}

// InformerHandler is a call an informer handles.
type InformerHandler struct {
	// name is status (update insights) or plan (update plan insights).
	// +required
	Name InformerHandlerName `json:"name"`

	// timeoutSeconds is how long a call may take.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=30
	TimeoutSeconds int32 `json:"timeoutSeconds"`
}

// InformerHandlerName names a call of the protocol.
// +kubebuilder:validation:Enum=status;plan
type InformerHandlerName string

const (
	// StatusHandler answers updateInsights.
	StatusHandler InformerHandlerName = "status"
	// PlanHandler answers updatePlanInsights.
	PlanHandler InformerHandlerName = "plan"
)

// UpdateInformer condition types and the reasons of Online=False.
const (
	InformerOnline     = "Online"
	InformerDiscovered = "Discovered"

	InformerUnreachable     = "Unreachable"
	InformerFailure         = "Failure"
	InformerWaiting         = "Waiting"
	InformerDiscoveryFailed = "DiscoveryFailed"
	InformerDisabled        = "Disabled"
)

// UpdateInformerList is a list of UpdateInformer.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type UpdateInformerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []UpdateInformer `json:"items"`
}
