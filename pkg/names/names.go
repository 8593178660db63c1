// Package names holds the names of cluster objects that the controllers and
// the command line both refer to: the cluster's own singletons, the
// machine-config operator's, and the operator's own.
package names

const (
	// ClusterVersion is the name of a cluster's one ClusterVersion, and of
	// its insight.
	ClusterVersion = "version"

	// OperatorVersion is the entry of a ClusterOperator's status.versions
	// that gives the version the operator itself runs.
	OperatorVersion = "operator"

	// MachineConfigOperator is the machine-config ClusterOperator.
	MachineConfigOperator = "machine-config"
	// MachineConfigOperatorNamespace and MachineConfigOperatorDeployment
	// locate the machine-config operator's Deployment, whose image tells
	// which payload the machine-config operator runs.
	MachineConfigOperatorNamespace  = "openshift-machine-config-operator"
	MachineConfigOperatorDeployment = "machine-config-operator"
	// MasterPool and WorkerPool are the MachineConfigPools the
	// machine-config operator always has: the control plane's nodes and the
	// default pool of the others.
	MasterPool = "master"
	WorkerPool = "worker"

	// AdminGates, in ConfigManagedNamespace, holds the update gates that
	// an administrator acknowledges in AdminAcks, in ConfigNamespace,
	// before the cluster-version operator starts a minor update.
	ConfigManagedNamespace = "openshift-config-managed"
	AdminGates             = "admin-gates"
	ConfigNamespace        = "openshift-config"
	AdminAcks              = "admin-acks"
	// Infrastructure is the cluster's one Infrastructure, whose
	// controlPlaneTopology tells a hosted control plane.
	Infrastructure = "cluster"
	// CloudCredential is the cloud-credential operator's configuration.
	CloudCredential = "cluster"

	// OwnClusterOperator is the update-insights operator's own
	// ClusterOperator.
	OwnClusterOperator = "update-insights"
	// OwnNamespace is the namespace the operator runs in.
	OwnNamespace = "openshift-update-insights"
	// Component names the operator in events, metrics and its Lease
	// (<Component>-lock).
	Component = "update-insights-operator"
	// OwnLease is the operator's leader election Lease, in OwnNamespace:
	// library-go's controllercmd names it <Component>-lock
	// (controllercmd/cmd.go, WithLeaderElection).
	OwnLease = Component + "-lock"
	// ConsolePlugin is the console plugin's name (console-plugin/package.json
	// consolePlugin.name) and its ConsolePlugin's, which the plugin
	// controller enables and the operator's ClusterOperator relates.
	ConsolePlugin = "update-insights-console-plugin"
)
