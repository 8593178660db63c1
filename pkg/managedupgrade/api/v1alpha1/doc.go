// Package v1alpha1 mirrors the fields of the Managed Upgrade Operator's
// UpgradeConfig (upgrade.managed.openshift.io/v1alpha1) that
// pkg/managedupgrade reads, with the JSON names of its CRD
// (test/testdata/managed-upgrade-operator). It is a mirror rather than the
// operator's own module so that reading an UpgradeConfig does not pull in
// that operator's controllers and their dependencies.
//
// The mirror is for reading only: it leaves out every field nothing here
// reads, so an object decoded into it and written back would lose them.
//
// +k8s:deepcopy-gen=package
// +groupName=upgrade.managed.openshift.io
package v1alpha1
