import { pools } from '../view/pools';
import { controlPlaneSeverity, levelSeverity, nodeSeverity, plural, poolSeverity, progressVariant } from '../view/severity';
import type { HealthView } from '../view/health';
import { condition, node } from './fixtures';

// What stalls the update is danger, what slows it warning, what is done
// success; the rest is grey (src/view/severity.ts).
describe('severity', () => {
  test.each([
    ['Degraded', 'danger'],
    ['Unavailable', 'warning'],
    ['Progressing', 'info'],
    ['Completed', 'success'],
    ['Outdated', undefined],
    ['Excluded', undefined],
    ['Unknown', undefined],
  ] as const)('a %s node', (assessment, want) => {
    expect(nodeSeverity(assessment)).toBe(want);
  });

  test.each([
    ['Critical', 'danger'],
    ['Error', 'danger'],
    ['Warning', 'warning'],
    ['Info', 'info'],
    ['Unknown', 'info'],
  ])('a health insight of level %s', (level, want) => {
    expect(levelSeverity(level)).toBe(want);
  });

  const pool = (assessment: string | undefined, ...states: ('degraded' | 'unavailable' | 'draining' | 'pending')[]) =>
    pools(
      assessment
        ? [{ status: { name: 'worker', scopeType: 'WorkerPool', assessment: assessment as never, completionPercent: 0 } }]
        : [],
      states.map((st, i) =>
        node(`n${i}`, condition('Updating', st === 'pending' ? 'False' : 'True', st === 'pending' ? 'Pending' : 'Draining'), {
          degraded: st === 'degraded',
          available: st === 'unavailable' ? false : undefined,
        }),
      ),
      {},
    ).workers[0];

  test.each([
    ['Degraded, whatever its nodes', pool('Degraded', 'pending'), 'danger'],
    ['Completed', pool('Completed', 'pending'), 'success'],
    ['Progressing with a degraded node: the node says it', pool('Progressing', 'draining', 'degraded'), 'danger'],
    ['Progressing, nodes draining', pool('Progressing', 'draining', 'pending'), 'info'],
    ['Pending', pool('Pending', 'pending'), undefined],
    ['known only from its nodes, one degraded', pool(undefined, 'degraded'), 'danger'],
  ])('a pool %s', (_, p, want) => {
    expect(poolSeverity(p)).toBe(want);
  });

  const health = (level: string, scope: string) => ({ level, scope }) as HealthView;
  test.each([
    ['Stalled', 'Stalled', [], 'danger'],
    ['Degraded, as earlier versions wrote Stalled', 'Degraded', [], 'danger'],
    ['slow: past its estimate', 'ProgressingSlow', [], 'warning'],
    ['slow with an Error about it', 'ProgressingSlow', [health('Error', 'ControlPlane')], 'danger'],
    ['Progressing with an Error insight about the control plane', 'Progressing', [health('Error', 'ControlPlane')], 'danger'],
    ['Progressing with a Warning about it', 'Progressing', [health('Info', 'ControlPlane'), health('Warning', 'ControlPlane')], 'warning'],
    ['Progressing with an Error about a worker pool only', 'Progressing', [health('Error', 'WorkerPool')], undefined],
    ['Completed', 'Completed', [health('Error', 'ControlPlane')], 'success'],
  ])('a control plane %s', (_, assessment, h, want) => {
    expect(controlPlaneSeverity({ controlPlane: { assessment } as never }, h)).toBe(want);
  });

  test('a progress bar has no info variant: it is blue without one', () => {
    expect([progressVariant('info'), progressVariant('danger'), progressVariant(undefined)]).toEqual([undefined, 'danger', undefined]);
  });

  test.each([
    [0, '0 nodes'],
    [1, '1 node'],
    [2, '2 nodes'],
  ])('%i nodes', (n, want) => {
    expect(plural(n, 'node')).toBe(want);
  });
});
