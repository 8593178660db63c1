// The hosted cluster tab and the hosted clusters' page rendered to HTML on
// the server (react-dom/server), the SDK's watch stubbed to hand them the
// documented management cluster's insights
// (test/testdata/docs/hosted-clusters.yaml) of the namespace asked for: the
// components run without error and put the view's sections and rows on the
// page, in the command's order. It shows nothing of a browser's rendering.
import * as fs from 'fs';
import * as path from 'path';
import { loadAll } from 'js-yaml';
import { renderToStaticMarkup } from 'react-dom/server';
import { useK8sWatchResource } from '@openshift-console/dynamic-plugin-sdk';
import HostedClusterTab from '../components/HostedClusterTab';
import HostedClustersPage from '../components/HostedClustersPage';

jest.mock('@openshift-console/dynamic-plugin-sdk', () => ({ useK8sWatchResource: jest.fn() }));
jest.mock('react-router', () => ({
  Link: ({ to, children }: { to: string; children: React.ReactNode }) => <a href={to}>{children}</a>,
}));

const objects = loadAll(
  fs.readFileSync(path.resolve(__dirname, '../../../test/testdata/docs/hosted-clusters.yaml'), 'utf8'),
) as { kind: string; metadata: { namespace: string } }[];

// The documented insights are of 2026-12-02T13:00:00Z, as the goldens.
beforeAll(() => {
  jest.useFakeTimers({ now: new Date('2026-12-02T13:00:00Z') });
});
afterAll(() => {
  jest.useRealTimers();
});

beforeEach(() => {
  jest.mocked(useK8sWatchResource).mockImplementation((({ groupVersionKind, namespace }: { groupVersionKind: { kind: string }; namespace?: string }) => [
    objects.filter((o) => o.kind === groupVersionKind.kind && (!namespace || o.metadata.namespace === namespace)),
    true,
    undefined,
  ]) as never);
});

const hostedCluster = (namespace: string, name: string) => ({ metadata: { namespace, name } });

test.each([
  ['ledger', ['Control Plane clusters/ledger', 'NodePool clusters/workers-a'], 1],
  ['billing', ['Control Plane clusters/billing', 'NodePool clusters/billing-inplace'], 1],
  ['analytics', ['Control Plane clusters/analytics', 'NodePool clusters/analytics-workers'], 0],
  ['staging', ['Control Plane clusters/staging'], 0],
])('the tab of clusters/%s shows its control plane, then its NodePools', (name, sections, problems) => {
  const html = renderToStaticMarkup(<HostedClusterTab obj={hostedCluster('clusters', name)} />);
  expect([...html.matchAll(/data-test="hosted-section" data-kind="([^"]+)" data-title="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual(sections);
  expect((html.match(/data-test="problems"/g) ?? []).length).toBe(problems);
  expect(html).not.toContain('data-test="hosted-cluster-missing"');
});

test("the tab lists the drain's lines under Held By and dates the update", () => {
  const html = renderToStaticMarkup(<HostedClusterTab obj={hostedCluster('clusters', 'ledger')} />);
  expect(html).toContain('Machine workers-a-x7k2p (node ip-10-0-141-23.ec2.internal): DrainingNode since 12m ago');
  expect(html).toContain('* Pod ledger/api-0: cannot evict pod');
  expect(html).toContain('2026-12-02T12:26:00Z');
  expect(html).toContain('34m (Est. Time Remaining: ~20m)');
});

test('the tab of a HostedCluster no insight names says so', () => {
  const html = renderToStaticMarkup(<HostedClusterTab obj={hostedCluster('other', 'ledger')} />);
  expect(html).toContain('data-test="hosted-cluster-missing"');
  expect(html).not.toContain('data-test="hosted-section"');
});

test('the page lists every hosted cluster, those that need attention first, each linked to its tab', () => {
  const html = renderToStaticMarkup(<HostedClustersPage />);
  expect([...html.matchAll(/data-attention="([^"]+)"/g)].map((m) => m[1])).toEqual(['NeedsAttention', 'NeedsAttention', 'NeedsAttention', 'Progressing', 'Completed']);
  expect([...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual(
    ['analytics', 'billing', 'staging', 'ledger', 'payments'].map((n) => `/k8s/ns/clusters/hypershift.openshift.io~v1beta1~HostedCluster/${n}/update-insights`),
  );
  expect(html).toContain('Progressing 62%');
});
