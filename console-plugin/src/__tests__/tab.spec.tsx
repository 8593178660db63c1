// The tab rendered to HTML on the server (react-dom/server), its SDK hooks
// stubbed to hand it a recorded cluster (test/testdata/golden), an
// UpdatePlan and UpdateInformers: the components run without error and put
// the view's facts on the page. It shows nothing of a browser's rendering
// or of the console's.
import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import { renderToStaticMarkup } from 'react-dom/server';
import { useAccessReview, useK8sWatchResource } from '@openshift-console/dynamic-plugin-sdk';
import UpdateInsightsTab from '../components/UpdateInsightsTab';
import { Popup } from '../overview/health';
import { condition, informer, plan } from './fixtures';

jest.mock('@openshift-console/dynamic-plugin-sdk', () => ({
  useK8sWatchResource: jest.fn(),
  useAccessReview: jest.fn(),
  k8sPatch: jest.fn(),
}));
jest.mock('react-router', () => ({
  Link: ({ to, children }: { to: string; children: React.ReactNode }) => <a href={to}>{children}</a>,
}));

const golden = path.resolve(__dirname, '../../../test/testdata/golden');
const { items } = load(
  fs.readFileSync(path.join(golden, '4.16.0-ec2-control-plane-updated-pdb-prohibits-draining.yaml'), 'utf8'),
) as { items: { kind: string }[] };

const objects: Record<string, unknown[]> = {
  UpdatePlan: [plan()],
  UpdateInformer: [informer('mco-informer', condition('Online', 'False', 'Unreachable', 'connection refused'))],
};
for (const i of items) {
  (objects[i.kind] ??= []).push(i);
}

const watch = ({ groupVersionKind, isList }: { groupVersionKind: { kind: string }; isList?: boolean }) => {
  const found = objects[groupVersionKind.kind] ?? [];
  if (isList) {
    return [found, true, undefined];
  }
  return found.length ? [found[0], true, undefined] : [undefined, true, { response: { status: 404 } }];
};

beforeEach(() => {
  jest.mocked(useK8sWatchResource).mockImplementation(watch as never);
});

test.each([
  ['may patch UpdatePlans', [true, false], false],
  ['may not', [false, false], true],
])('the tab renders the recorded cluster; the user %s', (_, access, saysWhy) => {
  jest.mocked(useAccessReview).mockReturnValue(access as [boolean, boolean]);
  const html = renderToStaticMarkup(<UpdateInsightsTab />);
  expect(html).toContain('data-test="control-plane"');
  expect(html).toContain('data-test="pool-worker"');
  expect(html).toContain('MachineConfigPool worker');
  // The control plane's nodes are all updated: one line says so, as
  // status prints it, instead of their rows.
  expect(html).toContain('All control plane nodes successfully updated to 4.16.0');
  const workers = objects.NodeProgressInsight.filter((n) => (n as { status: { scopeType: string } }).status.scopeType === 'WorkerPool');
  expect((html.match(/data-test="node-/g) ?? []).length).toBe(workers.length);
  expect(html).toContain('data-test="health-Error"');
  expect(html).toContain('data-test="informer-mco-informer"');
  expect(html).toContain('Offline (Unreachable)');
  expect((html.match(/data-test="finding"/g) ?? []).length).toBe(3);
  expect(html.includes('data-test="accept-not-allowed"')).toBe(saysWhy);
});

test('the Overview popup says the state and links to the tab', () => {
  const html = renderToStaticMarkup(
    <Popup
      clusterVersion={{ data: objects.ClusterVersionProgressInsight[0] as never, loaded: true, loadError: undefined }}
      pools={{ data: (objects.MachineConfigPoolProgressInsight ?? []) as never, loaded: true, loadError: undefined }}
      health={{ data: (objects.UpdateHealthInsight ?? []) as never, loaded: true, loadError: undefined }}
      updateStatus={{ data: (objects.UpdateStatus ?? [])[0] as never, loaded: true, loadError: undefined }}
    />,
  );
  expect(html).toContain('href="/settings/cluster/update-insights"');
  expect(html).toMatch(/Updating to 4\.16\.0/);
});
