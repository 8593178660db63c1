// The documented examples with UpdateInformers, read where the operator's
// docs test keeps them (test/testdata/docs/*.yaml, written for
// docs/administrators.md, whose outputs `go test ./test/docs/...` checks
// against the status command): the view says the same lines.
import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import { buildStatus, Insights } from '../view/status';

const root = path.resolve(__dirname, '../../..');
const doc = fs.readFileSync(path.join(root, 'docs/administrators.md'), 'utf8');

const insightsFrom = (file: string): Insights => {
  const { items } = load(fs.readFileSync(path.join(root, file), 'utf8')) as { items: { kind: string }[] };
  const of = <T>(kind: string) => items.filter((i) => i.kind === kind) as T[];
  return {
    clusterVersions: of('ClusterVersionProgressInsight'),
    clusterOperators: of('ClusterOperatorProgressInsight'),
    machineConfigPools: of('MachineConfigPoolProgressInsight'),
    nodes: of('NodeProgressInsight'),
    health: of('UpdateHealthInsight'),
    updateStatus: of<NonNullable<Insights['updateStatus']>>('UpdateStatus')[0],
    updateInformers: [],
    operator: of<NonNullable<Insights['operator']>>('ClusterOperator')[0],
  };
};

describe.each([
  ['test/testdata/docs/scheduled-update.yaml', '2026-11-23T00:00:00Z'],
  ['test/testdata/docs/managed-health-check.yaml', '2026-11-22T10:00:00Z'],
])('%s', (file, now) => {
  const view = buildStatus(insightsFrom(file), new Date(now));

  test('is not updating, and says what update an informer holds', () => {
    expect(view.updating).toBe(false);
    expect(doc).toContain(`\n${view.notUpdating}\n`);
  });

  test('says each warning the command prints', () => {
    for (const w of view.warnings) {
      expect(doc).toContain(`\nWarning: ${w}\n`);
    }
  });

  test("lists the informers' progress and health", () => {
    view.controlPlane.informers.forEach((p, i) => {
      const label = i === 0 ? 'Informers:       ' : '                 ';
      expect(doc).toContain(`\n${label}${p.summary} (${p.note})\n`);
    });
    expect(view.health.length).toBeGreaterThan(0);
    for (const h of view.health) {
      expect(doc).toMatch(new RegExp(`\\n${h.since} +${h.level} +${h.impact} +${h.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
    }
  });
});

test('the scheduled update names the informer that cannot be heard and the degraded operator', () => {
  const view = buildStatus(insightsFrom('test/testdata/docs/scheduled-update.yaml'), new Date('2026-11-23T00:00:00Z'));
  expect(view.upcoming?.state).toBe('Scheduled');
  expect(view.warnings).toEqual([
    'The update-insights operator is degraded (NodeWriteRejected), so what follows may be out of date; `oc describe clusteroperator update-insights` says why.',
    'Update informer node-tuning is offline (Unreachable).',
  ]);
});
