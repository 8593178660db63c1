// The "Update insights" tab of a HyperShift HostedCluster's page: a
// console.tab/horizontalNav extension on hypershift.openshift.io/v1beta1
// HostedCluster, which the console's HorizontalNav hands the HostedCluster
// as obj (frontend/public/components/utils/horizontal-nav.tsx,
// PageComponentProps). It shows what `status --hosted-cluster NS/NAME`
// prints: the control plane, then a card per NodePool, from the insights
// of the HostedCluster's namespace and name (pkg/controllers/hostedclusters
// names them so) and the NodePool insights whose status.hostedCluster
// names it.
import { Alert, AlertVariant, Spinner, Stack, StackItem } from '@patternfly/react-core';
import type { K8sResourceCommon, PageComponentProps } from '@openshift-console/dynamic-plugin-sdk';
import { buildFleet, findCluster } from '../view/hosted';
import { clusterSections } from '../view/hostedtext';
import { HostedSectionCard } from './HostedSectionCard';
import { useHostedInsights } from './useHostedInsights';
import { useNow } from './useNow';

const errorText = (e: unknown) => (e as { message?: string })?.message ?? String(e);

const HostedClusterTab = ({ obj }: PageComponentProps<K8sResourceCommon>) => {
  const namespace = obj?.metadata?.namespace ?? '';
  const name = obj?.metadata?.name ?? '';
  const { clusters, pools, loaded, errors } = useHostedInsights(namespace);
  const now = useNow();
  if (!loaded && errors.length === 0) {
    return <Spinner aria-label="Loading the hosted cluster's update insights" />;
  }
  const cluster = findCluster(buildFleet(clusters, pools, now), namespace, name);
  return (
    // The console's HorizontalNav puts the tab in its page body already.
    <div data-test="hosted-cluster" style={{ padding: 'var(--pf-t--global--spacer--lg)' }}>
      <Stack hasGutter>
        {errors.map((e, i) => (
          <StackItem key={i}>
            <Alert isInline variant={AlertVariant.danger} title={`Cannot read the insights: ${errorText(e)}`} />
          </StackItem>
        ))}
        {loaded && !cluster && (
          // What the command says of a name no insight holds.
          <StackItem data-test="hosted-cluster-missing">
            <p>{`No update insights of ${namespace}/${name}: neither a HostedClusterProgressInsight nor a NodePoolProgressInsight names it.`}</p>
          </StackItem>
        )}
        {cluster &&
          clusterSections(cluster, now).map((s) => (
            <StackItem key={`${s.kind}/${s.title}`}>
              <HostedSectionCard section={s} />
            </StackItem>
          ))}
      </Stack>
    </div>
  );
};

export default HostedClusterTab;
