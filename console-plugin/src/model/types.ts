// The insight kinds as the operator writes them, read by the plugin: a
// transcription of the Go types in pkg/apis/insights/v1alpha1 (only the
// fields the plugin reads). Optional Go fields are optional here; times are
// RFC 3339 strings and durations Go duration strings (metav1.Time,
// metav1.Duration).

export type Condition = {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
};

export type ObjectMeta = {
  name?: string;
  namespace?: string;
  resourceVersion?: string;
  uid?: string;
};

export type K8sObject<S, P = unknown> = {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: P;
  status?: S;
};

// types_common.go
export type ResourceRef = {
  group?: string;
  resource: string;
  name: string;
  namespace?: string;
};

export type ScopeType = 'ControlPlane' | 'WorkerPool';

// types_clusterversion.go
export type VersionMetadata = { key: 'Installation' | 'Partial' | 'Architecture'; value?: string };
export type Version = { version?: string; metadata?: VersionMetadata[] };

// Degraded is no longer written, but an insight an earlier version stored
// may still say it.
export type ClusterVersionAssessment = 'Unknown' | 'Progressing' | 'ProgressingSlow' | 'Stalled' | 'Completed' | 'Degraded';

export type ClusterVersionProgressInsight = K8sObject<{
  conditions?: Condition[];
  name: string;
  assessment: ClusterVersionAssessment;
  versions: { target: Version; previous?: Version };
  completionPercent: number;
  startedAt?: string;
  completedAt?: string;
  estimatedCompletedAt?: string;
  lastObservedProgress?: string;
}>;

// types_clusteroperator.go
export type ClusterOperatorProgressInsight = K8sObject<{
  conditions?: Condition[];
  name: string;
  // progressingReason is the ClusterOperator's own Progressing reason
  // while it updates.
  progressingReason?: string;
}>;

// types_machineconfigpool.go
export type PoolAssessment =
  | 'Pending'
  | 'Completed'
  | 'Degraded'
  | 'Excluded'
  | 'Progressing'
  | 'Behind';

export type NodeSummaryType =
  | 'Total'
  | 'Available'
  | 'Progressing'
  | 'Outdated'
  | 'Draining'
  | 'Excluded'
  | 'Degraded';

export type MachineConfigPoolProgressInsight = K8sObject<{
  conditions?: Condition[];
  name: string;
  // Set only when the pool is not a MachineConfigPool: a HyperShift NodePool.
  resource?: ResourceRef;
  scopeType: ScopeType;
  assessment: PoolAssessment;
  completionPercent: number;
  summaries?: { type: NodeSummaryType; count: number }[];
  // imageBuild is the OS image build of an image-mode (layered) pool, one
  // with a MachineOSConfig; absent for any other pool.
  imageBuild?: PoolImageBuild;
}>;

// ImageBuildState is the state of an image-mode pool's build.
export type ImageBuildState = 'Waiting' | 'Prepared' | 'Building' | 'Succeeded' | 'Failed' | 'Interrupted';

// PoolImageBuild is the image build of an image-mode pool for the pool's
// target configuration (types_machineconfigpool.go PoolImageBuild).
export type PoolImageBuild = {
  machineOSConfig: string;
  // machineOSBuild is absent while the machine-config operator has not
  // created one.
  machineOSBuild?: string;
  state: ImageBuildState;
  // since is when the build entered its state; absent while it is Waiting.
  since?: string;
  image?: string;
  // estimatedToComplete is a Go duration ("9m0s"), while the build is
  // Prepared or Building.
  estimatedToComplete?: string;
  message?: string;
};

// types_node.go
export type NodeProgressInsight = K8sObject<{
  conditions?: Condition[];
  name: string;
  poolResource: ResourceRef;
  scopeType: ScopeType;
  version?: string;
  estimatedToComplete?: string;
  message?: string;
}>;

// types_health.go
export type InsightImpactLevel = 'Unknown' | 'Info' | 'Warning' | 'Error' | 'Critical';

export type UpdateHealthInsight = K8sObject<{
  // startedAt is absent when nothing in the cluster dates the problem.
  startedAt?: string;
  scope: { type: ScopeType; resources?: ResourceRef[] };
  impact: { level: InsightImpactLevel; type: string; summary: string; description?: string };
  remediation: { reference?: string; estimatedFinish?: string };
}>;

// types_updatestatus.go
export type UpdateInsightLevel = 'status' | 'info' | 'warning' | 'error' | 'critical';

export type InsightResource = { group?: string; kind: string; namespace?: string; name: string };

export type UpdateInsight = {
  uid: string;
  acquisitionTime?: string;
  scope: { type: ScopeType; workerPool?: InsightResource[]; resources?: InsightResource[] };
  impact: { level: UpdateInsightLevel; type?: string; summary: string; description?: string };
  remediation?: { reference?: string; resolved?: boolean; estimatedFinish?: string };
};

export type InformerInsights = { name: string; stale?: boolean; insights?: UpdateInsight[] };

export type UpdateStatus = K8sObject<{
  conditions?: Condition[];
  controlPlane?: { conditions?: Condition[]; informers?: InformerInsights[] };
  workerPools?: { resource: ResourceRef; conditions?: Condition[]; informers?: InformerInsights[] }[];
}>;

// types_updateplan.go
export type AcceptedInsight = { updateInformer: string; uid: string; accepted: boolean };

export type UpdatePlanInsight = UpdateInsight & { identity: string; accepted?: boolean };

export type InformerPlanInsights = { name: string; stale?: boolean; insights?: UpdatePlanInsight[] };

export type UpdatePlan = K8sObject<
  {
    conditions?: Condition[];
    observedEvaluationRequest?: string;
    evaluatedAt?: string;
    controlPlane?: { informers?: InformerPlanInsights[] };
    workerPools?: { resource: ResourceRef; informers?: InformerPlanInsights[] }[];
  },
  { targetRelease: string; acceptedInsights?: AcceptedInsight[]; evaluationRequest?: string }
>;

// types_updateinformer.go
export type UpdateInformer = K8sObject<
  {
    conditions?: Condition[];
    handlers?: { name: 'status' | 'plan'; timeoutSeconds: number }[];
    apiLevel?: string;
    lastHeartbeatTime?: string;
  },
  { enabled?: boolean }
>;

// types_hostedcluster.go: on a HyperShift management cluster, one per
// HostedCluster, of its namespace and name.
export type HostedClusterAssessment = 'Unknown' | 'Progressing' | 'Completed' | 'Blocked' | 'Stalled' | 'Failing';

export type HostedProblem = {
  level: InsightImpactLevel;
  reason: string;
  message: string;
  resource?: ResourceRef;
  since?: string;
};

export type HostedClusterProgressInsight = K8sObject<{
  conditions?: Condition[];
  assessment: HostedClusterAssessment;
  versions: { target: Version; previous?: Version };
  completionPercent: number;
  startedAt?: string;
  completedAt?: string;
  estimatedCompletedAt?: string;
  nodePools?: { total?: number; updated?: number; updating?: number; degraded?: number };
  problems?: HostedProblem[];
}>;

// types_nodepool.go: one per NodePool, of its namespace and name; its
// HostedCluster is status.hostedCluster, in the same namespace.
export type NodePoolProgressInsightStatus = {
  conditions?: Condition[];
  hostedCluster: string;
  upgradeType: 'Replace' | 'InPlace';
  assessment: PoolAssessment;
  versions?: { current?: string; target?: string };
  completionPercent: number;
  machines?: { desired?: number; updated?: number; source?: 'NodesInfo' | 'Machines' | 'MachineSets' | 'InPlaceUpgrader' };
  holdingMachine?: { name: string; node?: string; reason: string; message?: string; since?: string };
  minorsBehind?: number;
  startedAt?: string;
  estimatedCompletedAt?: string;
  problems?: HostedProblem[];
};

export type NodePoolProgressInsight = K8sObject<NodePoolProgressInsightStatus>;

// types_updaterecord.go: one per update the operator saw, kept after it
// ends. The operator creates a record empty and writes its status next, so
// a record may have none yet.
export type UpdateRecordState = 'Progressing' | 'Completed' | 'Abandoned';

export type TimeSpan = { from: string; to: string };

export type OperatorUpdateRecord = { name: string; startedAt?: string; completedAt?: string; updated?: boolean };

export type UpdateStall = {
  name: string;
  level: InsightImpactLevel;
  impact: string;
  scope: ScopeType;
  resources?: ResourceRef[];
  summary: string;
  startedAt?: string;
  firstSeenAt: string;
  endedAt?: string;
  endNotObserved?: boolean;
};

export type EstimateRecord = { percent: number; observedAt: string; completionPercent: number; estimatedCompletedAt?: string };

// PoolUpdateRecord is what a pool's nodes took: when its first node began
// and its last finished, each phase across its nodes, the nodes' times and
// its slowest nodes. Records written before pools were recorded have none.
export type NodeUpdateRecord = {
  name: string;
  startedAt: string;
  completedAt?: string;
  draining?: string;
  updating?: string;
  rebooting?: string;
};

export type PoolUpdateRecord = {
  name: string;
  scopeType: ScopeType;
  assessment?: PoolAssessment;
  nodes?: number;
  updated?: number;
  startedAt?: string;
  completedAt?: string;
  phases?: { phase: string; startedAt: string; endedAt?: string }[];
  nodeTimes?: { timed?: number; median?: string; p90?: string };
  slowestNodes?: NodeUpdateRecord[];
  updatingOmitted?: number;
};

export type UpdateRecordStatus = {
  from?: Version;
  to: Version;
  state: UpdateRecordState;
  startedAt: string;
  controlPlaneCompletedAt?: string;
  // completedAt is the update's completion: its pools' with its control
  // plane's.
  completedAt?: string;
  abandonedAt?: string;
  durations?: { controlPlane?: string; total?: string };
  observedUntil: string;
  notObserved?: TimeSpan[];
  notObservedOmitted?: number;
  clusterOperators?: OperatorUpdateRecord[];
  stalls?: UpdateStall[];
  stallsOmitted?: number;
  estimates?: EstimateRecord[];
  pools?: PoolUpdateRecord[];
  poolsOmitted?: number;
};

export type UpdateRecord = K8sObject<UpdateRecordStatus>;

export const findCondition = (
  conditions: Condition[] | undefined,
  type: string,
): Condition | undefined => conditions?.find((c) => c.type === type);
