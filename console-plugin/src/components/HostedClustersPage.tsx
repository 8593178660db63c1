// The page of every hosted cluster's update, at /update-insights/hosted-clusters
// (a console.page/route extension, reached from Compute in the
// administrator's navigation): the table `status --hosted-clusters`
// prints, those that need attention first, each cluster's name leading to
// its HostedCluster's "Update insights" tab.
import { Alert, AlertVariant, Label, Spinner, Stack, StackItem, Title } from '@patternfly/react-core';
import { Link } from 'react-router';
import { HostedClusterTabPath } from '../model/models';
import { buildFleet } from '../view/hosted';
import { fleetRows } from '../view/hostedtext';
import { SimpleTable } from './SimpleTable';
import { useHostedInsights } from './useHostedInsights';
import { useNow } from './useNow';

const errorText = (e: unknown) => (e as { message?: string })?.message ?? String(e);

const HostedClustersPage = () => {
  const { clusters, pools, loaded, errors } = useHostedInsights();
  const now = useNow();
  const rows = fleetRows(buildFleet(clusters, pools, now), now);
  return (
    <div data-test="hosted-clusters" style={{ padding: 'var(--pf-t--global--spacer--lg)' }}>
      <Stack hasGutter>
        <StackItem>
          <Title headingLevel="h1">Hosted cluster updates</Title>
        </StackItem>
        {errors.map((e, i) => (
          <StackItem key={i}>
            <Alert isInline variant={AlertVariant.danger} title={`Cannot read the insights: ${errorText(e)}`} />
          </StackItem>
        ))}
        {!loaded && errors.length === 0 && (
          <StackItem>
            <Spinner aria-label="Loading the hosted clusters' update insights" />
          </StackItem>
        )}
        {loaded && rows.length === 0 && (
          <StackItem data-test="no-hosted-clusters">
            <p>No HostedClusterProgressInsights or NodePoolProgressInsights: the operator reports on no hosted cluster.</p>
          </StackItem>
        )}
        {rows.length > 0 && (
          <StackItem>
            <SimpleTable
              label="Hosted cluster updates"
              columns={[
                { title: 'Namespace/Name' },
                { title: 'From -> To', nowrap: true },
                { title: 'Control plane', nowrap: true },
                { title: 'NodePools', nowrap: true },
                { title: 'ETA', nowrap: true },
                { title: 'Problem' },
              ]}
              rows={rows.map((r) => ({
                key: `${r.namespace}/${r.name}`,
                testId: 'hosted-cluster-row',
                attrs: { 'data-attention': r.attention },
                cells: [
                  <Link key="n" to={HostedClusterTabPath(r.namespace, r.name)} data-test="hosted-cluster-link">
                    {`${r.namespace}/${r.name}`}
                  </Link>,
                  r.fromTo,
                  <Label key="c" isCompact status={r.severity} data-status={r.severity ?? 'none'}>
                    {r.controlPlane}
                  </Label>,
                  r.nodePools,
                  r.eta,
                  <span key="p" title={r.wholeProblem}>
                    {r.problem}
                  </span>,
                ],
              }))}
            />
          </StackItem>
        )}
      </Stack>
    </div>
  );
};

export default HostedClustersPage;
