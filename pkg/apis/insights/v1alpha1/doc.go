// Package v1alpha1 holds the update insight API: cluster-scoped objects whose
// status tells how a cluster update is going. The wire format is shared with
// the openshift-update-experience insights so that tools reading those read
// these too.
//
// +k8s:deepcopy-gen=package
// +groupName=openshift.muller.dev
// +groupGoName=Insights
package v1alpha1
