// Small insight objects for the table-driven tests, in the shapes the
// operator writes; each says where its values come from.
import type {
  AcceptedInsight,
  Condition,
  MachineConfigPoolProgressInsight,
  NodeProgressInsight,
  UpdateInformer,
  UpdatePlan,
} from '../model/types';

export const condition = (type: string, status: Condition['status'], reason: string, message = ''): Condition => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: '2024-02-07T16:31:09Z',
});

// node is a worker's NodeProgressInsight as in
// test/testdata/golden/4.14.1-workers-started-updating-multiple-pools.yaml:
// the Updating condition's reason is the phase, Available and Degraded say
// whether it is healthy.
export const node = (
  name: string,
  updating: Condition,
  opts: { available?: boolean; degraded?: boolean; est?: string; message?: string; pool?: string; nodePool?: boolean } = {},
): NodeProgressInsight => ({
  apiVersion: 'openshift.muller.dev/v1alpha1',
  kind: 'NodeProgressInsight',
  metadata: { name },
  status: {
    name,
    poolResource: opts.nodePool
      ? { group: 'hypershift.openshift.io', resource: 'nodepools', name: opts.pool ?? 'workers-a' }
      : { group: 'machineconfiguration.openshift.io', resource: 'machineconfigpools', name: opts.pool ?? 'worker' },
    scopeType: 'WorkerPool',
    version: '4.14.0',
    estimatedToComplete: opts.est,
    message: opts.message,
    conditions: [
      updating,
      condition('Available', opts.available === false ? 'False' : 'True', opts.available === false ? 'Unschedulable' : 'AsExpected'),
      condition('Degraded', opts.degraded ? 'True' : 'False', opts.degraded ? 'MachineConfigDaemonDegraded' : 'AsExpected'),
    ],
  },
});

// nodePool is a pool insight of a HyperShift NodePool: status.resource
// names it as pkg/hosted/nodepool.go NodePool does (group
// hypershift.openshift.io, resource nodepools, no namespace); the operator
// writes none yet, so this is built from the API type
// (types_machineconfigpool.go).
export const nodePool = (name: string, assessment: 'Behind' | 'Progressing'): MachineConfigPoolProgressInsight => ({
  apiVersion: 'openshift.muller.dev/v1alpha1',
  kind: 'MachineConfigPoolProgressInsight',
  metadata: { name },
  status: {
    name,
    resource: { group: 'hypershift.openshift.io', resource: 'nodepools', name },
    scopeType: 'WorkerPool',
    assessment,
    completionPercent: 0,
    summaries: [
      { type: 'Total', count: 1 },
      { type: 'Available', count: 1 },
      { type: 'Outdated', count: 1 },
    ],
  },
});

// informer is an UpdateInformer after the operator called it
// (types_updateinformer.go; docs/informers.md registers my-informer).
export const informer = (name: string, online: Condition | undefined, heartbeat?: string, enabled?: boolean): UpdateInformer => ({
  apiVersion: 'openshift.muller.dev/v1alpha1',
  kind: 'UpdateInformer',
  metadata: { name },
  spec: enabled === undefined ? {} : { enabled },
  status: {
    conditions: online ? [online] : [],
    handlers: [
      { name: 'status', timeoutSeconds: 10 },
      { name: 'plan', timeoutSeconds: 10 },
    ],
    lastHeartbeatTime: heartbeat,
  },
});

// plan is an UpdatePlan for 4.15.0 whose findings are among those of
// test/testdata/golden/prechecks/4.14.1-degraded.txt (the operator's own,
// with their identities as it computes them), plus a worker pool finding
// of an informer in the protocol's shape (pkg/informer/protocol/contract.md).
export const plan = (acceptedInsights?: AcceptedInsight[]): UpdatePlan => ({
  apiVersion: 'openshift.muller.dev/v1alpha1',
  kind: 'UpdatePlan',
  metadata: { name: '4.15.0', resourceVersion: '4711' },
  spec: { targetRelease: '4.15.0', evaluationRequest: '2023-11-03T17:26:54Z', acceptedInsights },
  status: {
    observedEvaluationRequest: '2023-11-03T17:26:54Z',
    evaluatedAt: '2023-11-03T17:26:54Z',
    conditions: [
      condition('Answered', 'True', 'AllAnswered', 'every informer answered'),
      condition('Accepted', 'False', 'NotAccepted', '2 findings are not accepted'),
    ],
    controlPlane: {
      informers: [
        {
          name: 'update-insights-operator',
          insights: [
            {
              uid: 'duration',
              identity: 'update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/duration',
              scope: { type: 'ControlPlane', resources: [{ group: 'config.openshift.io', kind: 'ClusterVersion', name: 'version' }] },
              impact: {
                level: 'status',
                type: 'None',
                summary:
                  'The update to 4.15.0 should take about 1h30m: the control plane ~1h (a default: the cluster has completed no update), then the workers ~30m (3 nodes in 1 pool)',
              },
            },
            {
              uid: 'clusteroperator/etcd/degraded',
              identity:
                'update-insights-operator/ControlPlane/ClusterOperator.config.openshift.io/etcd/clusteroperator/etcd/degraded',
              scope: { type: 'ControlPlane', resources: [{ group: 'config.openshift.io', kind: 'ClusterOperator', name: 'etcd' }] },
              impact: {
                level: 'warning',
                type: 'Update Stalled',
                summary:
                  'Cluster operator etcd is degraded (EtcdEndpoints_ErrorUpdatingEtcdEndpoints::EtcdMembers_UnhealthyMembers::NodeController_MasterNodesReady)',
              },
            },
            {
              uid: 'cluster-failing',
              identity: 'update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/cluster-failing',
              accepted: true,
              scope: { type: 'ControlPlane', resources: [{ group: 'config.openshift.io', kind: 'ClusterVersion', name: 'version' }] },
              impact: {
                level: 'error',
                type: 'Update Stalled',
                summary: 'The cluster is failing (Failing=True, ClusterOperatorsDegraded)',
                description: 'Cluster operators etcd, kube-apiserver are degraded',
              },
            },
          ],
        },
      ],
    },
    workerPools: [
      {
        resource: { group: 'machineconfiguration.openshift.io', resource: 'machineconfigpools', name: 'worker' },
        informers: [
          {
            name: 'mco-informer',
            stale: true,
            insights: [
              {
                uid: 'pdb/app',
                identity: 'mco-informer/WorkerPool/PodDisruptionBudget.policy/app/app/pdb/app',
                scope: {
                  type: 'WorkerPool',
                  resources: [{ group: 'policy', kind: 'PodDisruptionBudget', namespace: 'app', name: 'app' }],
                },
                impact: { level: 'error', type: 'Update Stalled', summary: 'A budget allows no disruption of app' },
                remediation: { reference: 'https://docs.example/pdb' },
              },
            ],
          },
        ],
      },
    ],
  },
});
