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

// recorded are the objects of a recorded cluster, by kind, with an
// UpdatePlan and an UpdateInformer.
const recorded = (name: string): Record<string, unknown[]> => {
  const { items } = load(fs.readFileSync(path.join(golden, `${name}.yaml`), 'utf8')) as { items: { kind: string }[] };
  const out: Record<string, unknown[]> = {
    UpdatePlan: [plan()],
    UpdateInformer: [informer('mco-informer', condition('Online', 'False', 'Unreachable', 'connection refused'))],
  };
  for (const i of items) {
    (out[i.kind] ??= []).push(i);
  }
  return out;
};

const objects = recorded('4.16.0-ec2-control-plane-updated-pdb-prohibits-draining');

const watching = (of: Record<string, unknown[]>) => ({ groupVersionKind, isList }: { groupVersionKind: { kind: string }; isList?: boolean }) => {
  const found = of[groupVersionKind.kind] ?? [];
  if (isList) {
    return [found, true, undefined];
  }
  return found.length ? [found[0], true, undefined] : [undefined, true, { response: { status: 404 } }];
};

beforeEach(() => {
  jest.mocked(useK8sWatchResource).mockImplementation(watching(objects) as never);
  jest.mocked(useAccessReview).mockReturnValue([true, false]);
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

// What an administrator reads at a glance: the colour of what stalls the
// update, each health insight's details as status prints them, labelled,
// and counts in words.
describe('severity and details on the page', () => {
  test('a Degraded worker pool: a red label and bar, red node labels', () => {
    const html = renderToStaticMarkup(<UpdateInsightsTab />);
    const pool = html.slice(html.indexOf('data-test="pool-worker"'));
    expect(pool).toMatch(/<span data-status="danger" data-test="card-assessment" class="pf-v6-c-label[^"]*pf-m-danger/);
    expect(pool).toMatch(/class="pf-v6-c-progress[^"]*pf-m-danger/);
    expect(html).toMatch(/data-test="node-build0-gstfj-ci-prowjobs-worker-b-9lztv".*?pf-m-danger/);
    expect(html).toContain('59 nodes');
  });

  test('a Stalled control plane: a red bar that says the completion the insight says', () => {
    jest.mocked(useK8sWatchResource).mockImplementation(watching(recorded('4.14.1-degraded')) as never);
    const html = renderToStaticMarkup(<UpdateInsightsTab />);
    const cp = html.slice(html.indexOf('data-test="control-plane"'));
    expect(cp).toMatch(/class="pf-v6-c-progress[^"]*pf-m-danger/);
    expect(cp).toContain('<span class="pf-v6-c-progress__measure">97%</span>');
  });

  test('a health insight shows its description and labelled resources, with no toggle', () => {
    const html = renderToStaticMarkup(<UpdateInsightsTab />);
    expect(html).not.toContain('pf-v6-c-expandable-section__toggle-text">Details');
    for (const term of ['Since', 'Impact', 'Scope', 'Reference', 'Resources', 'Description']) {
      expect(html).toContain(`<span class="pf-v6-c-description-list__text">${term}</span>`);
    }
    expect(html).toContain('failed to drain node: build0-gstfj-ci-prowjobs-worker-b-9lztv after 1 hour.');
    expect(html).toContain('<li>nodes: build0-gstfj-ci-prowjobs-worker-b-9lztv</li>');
  });

  // The insight holds a node's message whole (up to 4,096 characters):
  // its row shows all of it, and offers to expand only a message it cuts.
  test('each degraded node shows its whole message, with nothing to expand', () => {
    const html = renderToStaticMarkup(<UpdateInsightsTab />);
    const row = html.slice(html.indexOf('data-test="node-build0-gstfj-ci-prowjobs-worker-b-9lztv"'));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain(
      'failed to drain node: &lt;node&gt; after 1 hour. Please see machine-config-controller logs for more information',
    );
    expect(html).not.toContain('data-test="detail-toggle"');
  });
});

// The updating operators' table as status prints it of the recorded
// cluster (test/testdata/golden/status/4.15.0-ec2-early.detailed-output),
// and a reason cut and a message of two lines as oc prints them
// (pkg/statusview/operators_test.go's network operator).
describe('the updating operators table', () => {
  const cells = (html: string, testId: string) =>
    [...(html.match(new RegExp(`<tr class="pf-v6-c-table__tr" data-test="${testId}">(.*?)</tr>`, 's'))?.[1] ?? '').matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) =>
      m[1].replace(/<[^>]+>/g, ''),
    );

  test('each operator says its Progressing reason', () => {
    jest.mocked(useK8sWatchResource).mockImplementation(watching(recorded('4.15.0-ec2-early')) as never);
    const html = renderToStaticMarkup(<UpdateInsightsTab />);
    expect(cells(html, 'operator-etcd').slice(2)).toEqual(['NodeInstaller', 'NodeInstallerProgressing: 2 nodes are at revision 33; 1 nodes are at revision 34']);
    expect(cells(html, 'operator-kube-apiserver').slice(2)).toEqual([
      'NodeInstaller',
      'NodeInstallerProgressing: 3 nodes are at revision 274; 0 nodes have achieved new revision 276',
    ]);
  });

  test('a long reason is cut, whole on hover, and a message continues on the next row', () => {
    const of = recorded('4.15.0-ec2-early');
    const etcd = of.ClusterOperatorProgressInsight.find((o) => (o as { metadata: { name: string } }).metadata.name === 'etcd') as {
      status: { progressingReason: string; conditions: { type: string; message: string }[] };
    };
    etcd.status.progressingReason = 'RolloutProgressingAndSlow';
    etcd.status.conditions.find((c) => c.type === 'Updating')!.message =
      'Deployment "/openshift-network-operator/iptables-alerter" is not available\nDaemonSet "/openshift-multus/multus" is not yet scheduled on any nodes';
    jest.mocked(useK8sWatchResource).mockImplementation(watching(of) as never);
    const html = renderToStaticMarkup(<UpdateInsightsTab />);
    expect(cells(html, 'operator-etcd').slice(2)).toEqual(['RolloutProgressin...', 'Deployment &quot;/openshift-network-operator/iptables-alerter&quot; is not available']);
    expect(html).toContain('<span title="RolloutProgressingAndSlow">RolloutProgressin...</span>');
    expect(cells(html, 'operator-etcd-continued')).toEqual(['', '', '', 'DaemonSet &quot;/openshift-multus/multus&quot; is not yet scheduled on any nodes']);
  });
});

// An image-mode pool's card, a worker pool's or the control plane nodes',
// says its OS image build in status's words (pkg/statusview/nodes.go
// imageBuildLine; text.go says the control plane's under its "Control
// Plane Nodes" heading): a line as the Behind one is, a plain inline alert
// for a build that failed (danger) or was interrupted (warning). Without a
// since the line does not depend on the clock.
describe("an image-mode pool's OS image build on its card", () => {
  const withBuild = (state: string, message?: string) => {
    const of = recorded('4.14.1-workers-started-updating-multiple-pools');
    for (const mcp of of.MachineConfigPoolProgressInsight as { status: { name: string; imageBuild?: unknown } }[]) {
      if (mcp.status.name === 'worker' || mcp.status.name === 'master') {
        mcp.status.imageBuild = { machineOSConfig: mcp.status.name, state, estimatedToComplete: '9m0s', message };
      }
    }
    return of;
  };

  test.each([
    ['Building', 'building the OS image', '<p data-test="image-build-worker" data-state="Building">', undefined],
    ['Failed', 'the build pod exited with code 1', 'data-test="image-build-worker" data-state="Failed"', 'pf-m-danger'],
    ['Interrupted', undefined, 'data-test="image-build-worker" data-state="Interrupted"', 'pf-m-warning'],
  ])('%s', (state, message, element, variant) => {
    jest.mocked(useK8sWatchResource).mockImplementation(watching(withBuild(state, message)) as never);
    const html = renderToStaticMarkup(<UpdateInsightsTab />);
    const line = (pool: string) =>
      `MachineConfigPool ${pool}: OS image build ${state} about 9m left by its past builds${message ? `: ${message}` : ''}`;
    const card = html.slice(html.indexOf('data-test="pool-worker"'), html.indexOf('data-test="pool-infra"'));
    expect(card).toContain(element);
    expect(card).toContain(line('worker'));
    if (variant) {
      expect(card).toMatch(new RegExp(`class="pf-v6-c-alert pf-m-inline pf-m-plain ${variant}"[^>]*data-test="image-build-worker"`));
    }
    // The control plane nodes' card says the master pool's, as its own.
    const cp = html.slice(html.indexOf('data-test="pool-master"'), html.indexOf('data-test="pool-worker"'));
    expect(cp).toContain('Control plane nodes');
    expect(cp).toContain(element.replace('image-build-worker', 'image-build-master'));
    expect(cp).toContain(line('master'));
    expect(cp).not.toContain(line('worker'));
    if (variant) {
      expect(cp).toMatch(new RegExp(`class="pf-v6-c-alert pf-m-inline pf-m-plain ${variant}"[^>]*data-test="image-build-master"`));
    }
    expect(html.match(/data-test="image-build-/g)).toHaveLength(2);
    expect(html).not.toContain('data-test="image-build-infra"');
  });

  test.each([
    ['worker', 'data-test="image-build-master"'],
    ['master', 'data-test="image-build-worker"'],
  ])('a completed pool says none: %s', (pool, other) => {
    const of = withBuild('Failed', 'the build pod exited with code 1');
    for (const mcp of of.MachineConfigPoolProgressInsight as { status: { name: string; assessment: string } }[]) {
      if (mcp.status.name === pool) {
        mcp.status.assessment = 'Completed';
      }
    }
    jest.mocked(useK8sWatchResource).mockImplementation(watching(of) as never);
    const html = renderToStaticMarkup(<UpdateInsightsTab />);
    expect(html).toContain('data-test="pool-worker"');
    expect(html).not.toContain(`data-test="image-build-${pool}"`);
    expect(html).toContain(other);
  });
});
