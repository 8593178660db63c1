// Package v1alpha1 mirrors the fields of OLM's ClusterServiceVersion,
// Subscription and InstallPlan (operators.coreos.com/v1alpha1) that
// pkg/olm reads, with the JSON names of their published CRDs
// (github.com/operator-framework/api, crds/, copied to test/testdata/olm).
// It is a mirror rather than that module so that reading three kinds does
// not pull in OLM's API machinery and its dependencies, and so that the
// caches hold only what the insights read: a cluster may hold a hundred
// thousand CSVs, each with its operator's whole install strategy.
//
// The mirror is for reading only: its clients get, list and watch, and it
// leaves out every field nothing here reads, so an object decoded into it
// and written back would lose them.
//
// +k8s:deepcopy-gen=package
// +groupName=operators.coreos.com
package v1alpha1
