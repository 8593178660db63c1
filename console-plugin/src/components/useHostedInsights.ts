// The watches of the hosted clusters' tab and page, through the SDK's
// useK8sWatchResource: the HostedClusterProgressInsights and
// NodePoolProgressInsights of one namespace, or of all. A NodePool insight
// names its HostedCluster only in status.hostedCluster, which no selector
// reaches, so the tab lists its namespace's and keeps its cluster's.
import { useK8sWatchResource } from '@openshift-console/dynamic-plugin-sdk';
import { HostedClusterProgressInsightGVK, NodePoolProgressInsightGVK } from '../model/models';
import type { HostedClusterProgressInsight, NodePoolProgressInsight } from '../model/types';

export type WatchedHosted = {
  clusters: HostedClusterProgressInsight[];
  pools: NodePoolProgressInsight[];
  loaded: boolean;
  errors: unknown[];
};

export const useHostedInsights = (namespace?: string): WatchedHosted => {
  const [clusters, clustersLoaded, clustersError] = useK8sWatchResource<HostedClusterProgressInsight[]>({
    groupVersionKind: HostedClusterProgressInsightGVK,
    isList: true,
    namespace,
  });
  const [pools, poolsLoaded, poolsError] = useK8sWatchResource<NodePoolProgressInsight[]>({
    groupVersionKind: NodePoolProgressInsightGVK,
    isList: true,
    namespace,
  });
  return {
    clusters: clusters ?? [],
    pools: pools ?? [],
    // A NodePool's insight alone says its HostedCluster exists: both are
    // needed before the page says what is there.
    loaded: clustersLoaded && poolsLoaded,
    errors: [clustersError, poolsError].filter((e) => e),
  };
};
