// +k8s:deepcopy-gen=package,register
// +groupName=machineconfiguration.openshift.io

// +kubebuilder:validation:Optional
// Package v1 is the v1 version of the API.
package v1
