// The watches the tab needs, through the SDK's useK8sWatchResource
// (frontend/packages/console-dynamic-plugin-sdk/src/utils/k8s/hooks/
// useK8sWatchResource.ts of openshift/console): lists of each insight kind,
// the one UpdateStatus, the UpdateInformers, the UpdatePlans, the
// operator's ClusterOperator and its leader Lease. Each returns [data, loaded, loadError].
import { K8sResourceCommon, useK8sWatchResource } from '@openshift-console/dynamic-plugin-sdk';
import {
  ClusterOperatorProgressInsightGVK,
  ClusterVersionProgressInsightGVK,
  MachineConfigPoolProgressInsightGVK,
  NodeProgressInsightGVK,
  UpdateHealthInsightGVK,
  UpdateInformerGVK,
  UpdatePlanGVK,
  UpdateStatusGVK,
  UpdateStatusName,
} from '../model/models';
import type { UpdatePlan } from '../model/types';
import { Lease, LeaseName, LeaseNamespace, LeaseReading } from '../view/liveness';
import { ClusterOperator, Insights, OperatorName } from '../view/status';

type Watched<T> = { data: T; loaded: boolean; error?: unknown };

const useList = <T extends K8sResourceCommon>(groupVersionKind: { group: string; version: string; kind: string }): Watched<T[]> => {
  const [data, loaded, error] = useK8sWatchResource<T[]>({ groupVersionKind, isList: true });
  return { data: data ?? [], loaded, error };
};

// notFound says a watch of a named object failed only because the object
// does not exist: the UpdateStatus before the operator first writes it.
const notFound = (e: unknown) => (e as { response?: { status?: number } })?.response?.status === 404;

const useNamed = <T extends K8sResourceCommon>(groupVersionKind: { group: string; version: string; kind: string }, name: string): Watched<T | undefined> => {
  const [data, loaded, error] = useK8sWatchResource<T>({ groupVersionKind, name });
  return notFound(error) ? { data: undefined, loaded: true } : { data: error ? undefined : data, loaded, error };
};

// useLease watches the operator's leader Lease, which says whether it
// runs. A user who may not read it (it is in the operator's namespace) is
// told so, as status tells it, and sees the rest all the same.
const useLease = (): LeaseReading | undefined => {
  const [data, loaded, error] = useK8sWatchResource<Lease & K8sResourceCommon>({
    groupVersionKind: { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' },
    namespace: LeaseNamespace,
    name: LeaseName,
  });
  if (notFound(error)) {
    return { found: false };
  }
  if (error) {
    return { found: false, error: (error as { message?: string })?.message ?? String(error) };
  }
  return loaded ? { lease: data, found: true } : undefined;
};

export type WatchedInsights = {
  insights: Insights;
  plans: UpdatePlan[];
  loaded: boolean;
  errors: unknown[];
};

export const useInsights = (): WatchedInsights => {
  const clusterVersions = useList<Insights['clusterVersions'][number]>(ClusterVersionProgressInsightGVK);
  const clusterOperators = useList<Insights['clusterOperators'][number]>(ClusterOperatorProgressInsightGVK);
  const machineConfigPools = useList<Insights['machineConfigPools'][number]>(MachineConfigPoolProgressInsightGVK);
  const nodes = useList<Insights['nodes'][number]>(NodeProgressInsightGVK);
  const health = useList<Insights['health'][number]>(UpdateHealthInsightGVK);
  const updateInformers = useList<Insights['updateInformers'][number]>(UpdateInformerGVK);
  const plans = useList<UpdatePlan>(UpdatePlanGVK);
  const updateStatus = useNamed<NonNullable<Insights['updateStatus']>>(UpdateStatusGVK, UpdateStatusName);
  const operator = useNamed<ClusterOperator>(
    { group: 'config.openshift.io', version: 'v1', kind: 'ClusterOperator' },
    OperatorName,
  );
  const lease = useLease();
  const all = [clusterVersions, clusterOperators, machineConfigPools, nodes, health, updateInformers, plans, updateStatus, operator];
  return {
    insights: {
      clusterVersions: clusterVersions.data,
      clusterOperators: clusterOperators.data,
      machineConfigPools: machineConfigPools.data,
      nodes: nodes.data,
      health: health.data,
      updateStatus: updateStatus.data,
      updateInformers: updateInformers.data,
      operator: operator.data,
      lease,
    },
    plans: plans.data,
    // The control plane's insight is enough to show something: the others
    // fill in as they come.
    loaded: clusterVersions.loaded,
    errors: all.map((w) => w.error).filter((e) => e),
  };
};
