// The picture of a recorded update (src/view/timeline.ts), from the records
// the goldens are of (test/testdata/golden/history): what is drawn where,
// and what is not drawn because it was not seen.
import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import type { UpdateRecord } from '../model/types';
import { Minute } from '../view/duration';
import { build } from '../view/history';
import { picture, ticks } from '../view/timeline';

const golden = path.resolve(__dirname, '../../../test/testdata/golden/history');
const records = (name: string) => (load(fs.readFileSync(path.join(golden, name), 'utf8')) as { items: UpdateRecord[] }).items;
const find = (file: string, name: string) => records(file).find((r) => r.metadata?.name === name)!;

const now = new Date('2026-12-03T12:00:00Z');
const t = (s: string) => Date.parse(s);
const draw = (r: UpdateRecord, at = now) => picture(r, build(r, at), at);

test('a completed update: a bar per operator and pool seen updating, its stall, the span not observed, its estimates', () => {
  const p = draw(find('records.yaml', '4.16.12-20261120-090000'))!;
  expect(p.operators).toEqual([
    { name: 'etcd', from: t('2026-11-20T09:05:00Z'), to: t('2026-11-20T09:25:00Z'), open: false },
    { name: 'kube-apiserver', from: t('2026-11-20T09:25:00Z'), to: t('2026-11-20T10:00:00Z'), open: false },
  ]);
  // dns updated while no operator saw it: counted, not drawn.
  expect(p.unseenOperators).toBe(1);
  expect(p.pools).toEqual([
    { name: 'worker', from: t('2026-11-20T09:40:00Z'), to: t('2026-11-20T10:50:00Z'), open: false },
    { name: 'master', from: t('2026-11-20T10:02:00Z'), to: t('2026-11-20T10:10:00Z'), open: false },
  ]);
  expect(p.unseenPools).toBe(0);
  expect(p.stalls).toEqual([
    {
      name: 'drain-worker-a',
      level: 'Warning',
      summary: 'Drain of node worker-a held by pod shop/api-0 under disruption budget shop/api',
      from: t('2026-11-20T09:40:00Z'),
      to: t('2026-11-20T09:54:00Z'),
      ongoing: false,
      lastSeen: false,
    },
  ]);
  expect(p.unobserved).toEqual([{ from: t('2026-11-20T09:00:00Z'), to: t('2026-11-20T09:03:00Z'), since: false }]);
  // The control plane completed at 10:12, the update with its pools at 10:50.
  expect([p.started, p.completed, p.updateCompleted, p.abandoned, p.lastSeen]).toEqual([
    t('2026-11-20T09:00:00Z'),
    t('2026-11-20T10:12:00Z'),
    t('2026-11-20T10:50:00Z'),
    undefined,
    undefined,
  ]);
  expect(p.estimates.map((e) => [e.completionPercent, e.estimatedAt, e.late! / Minute, e.beyond])).toEqual([
    [27, t('2026-11-20T10:24:00Z'), -12, false],
    [51, t('2026-11-20T10:12:00Z'), 0, false],
    [75, t('2026-11-20T10:09:00Z'), 3, false],
  ]);
  expect([p.from, p.to]).toEqual([t('2026-11-20T09:00:00Z'), t('2026-11-20T10:50:00Z')]);
  expect(p.ticks.map((k) => k.label)).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45']);
});

test('an update in progress is drawn until now, where it was last seen marked', () => {
  const r = find('records.yaml', '4.16.13-20261203-113000');
  const p = draw(r)!;
  expect([p.lastSeen, p.completed]).toEqual([t('2026-12-03T11:59:00Z'), undefined]);
  // Written a minute ago: within the heartbeat, all seen.
  expect(p.unobserved).toEqual([]);
  expect(p.estimates.map((e) => [e.estimatedAt, e.late, e.beyond])).toEqual([[t('2026-12-03T12:40:00Z'), undefined, false]]);
  expect(p.to).toBe(t('2026-12-03T12:40:00Z'));
});

test('a record in progress not written for longer than a running operator allows: the time since is not observed', () => {
  const later = new Date('2026-12-04T01:00:00Z');
  const p = draw(find('records.yaml', '4.16.13-20261203-113000'), later)!;
  expect(p.unobserved).toEqual([{ from: t('2026-12-03T11:59:00Z'), to: later.getTime(), since: true }]);
  expect(p.to).toBe(later.getTime());
});

test('an abandoned update: operators and pools whose end was not seen run to the abandonment, those never seen starting are not drawn', () => {
  const p = draw(find('cases/records.yaml', '4.16.11-20261101-080000'))!;
  expect(p.operators.map((b) => [b.name, b.to, b.open])).toEqual([
    ['etcd', t('2026-11-01T08:30:00Z'), false],
    ['network', t('2026-11-01T09:10:00Z'), true],
    ['kube-apiserver', t('2026-11-01T09:10:00Z'), true],
  ]);
  expect(p.unseenOperators).toBe(1);
  expect(p.pools.map((b) => [b.name, b.to, b.open])).toEqual([
    ['master', t('2026-11-01T09:10:00Z'), true],
    ['infra', t('2026-11-01T09:10:00Z'), true],
  ]);
  expect(p.unseenPools).toBe(1);
  expect(p.stalls.map((s) => [s.name, s.from, s.to, s.ongoing, s.lastSeen])).toEqual([
    ['etcd-quorum', t('2026-11-01T08:40:00Z'), t('2026-11-01T08:50:00Z'), false, true],
    ['api-unavailable', t('2026-11-01T08:58:00Z'), t('2026-11-01T09:10:00Z'), true, false],
  ]);
  expect([p.abandoned, p.completed]).toEqual([t('2026-11-01T09:10:00Z'), undefined]);
  // The estimate at 26% gave no completion: nothing to draw.
  expect(p.estimates.map((e) => e.completionPercent)).toEqual([52]);
});

test('pools of an update in progress: a bar each from its start, one still updating to where it was last seen, one with no start counted', () => {
  const r = structuredClone(find('records.yaml', '4.16.13-20261203-113000'));
  r.status!.pools = [
    { name: 'worker', scopeType: 'WorkerPool', startedAt: '2026-12-03T11:50:00Z' },
    { name: 'master', scopeType: 'ControlPlane', startedAt: '2026-12-03T11:40:00Z', completedAt: '2026-12-03T11:55:00Z' },
    { name: 'infra', scopeType: 'WorkerPool' },
  ];
  const p = draw(r)!;
  expect(p.pools).toEqual([
    { name: 'master', from: t('2026-12-03T11:40:00Z'), to: t('2026-12-03T11:55:00Z'), open: false },
    // Still updating: to where the update was last seen.
    { name: 'worker', from: t('2026-12-03T11:50:00Z'), to: t('2026-12-03T11:59:00Z'), open: true },
  ]);
  expect(p.unseenPools).toBe(1);
});

test('an estimate far beyond the update is drawn at the limit, said beyond', () => {
  const r = structuredClone(find('records.yaml', '4.16.13-20261203-113000'));
  r.status!.estimates![0].estimatedCompletedAt = '2026-12-05T00:00:00Z';
  const p = draw(r)!;
  expect(p.estimates.map((e) => [e.estimatedAt, e.beyond])).toEqual([[t('2026-12-03T13:00:00Z'), true]]);
  expect(p.to).toBe(t('2026-12-03T13:00:00Z'));
});

test('a record not yet written has nothing to draw', () => {
  const r = find('cases/records.yaml', '4.17.0-20261202-000000');
  expect(draw(r)).toBeUndefined();
});

test('ticks: at most eight, the date at midnight', () => {
  expect(ticks(t('2026-12-02T22:10:00Z'), t('2026-12-03T02:00:00Z')).map((k) => k.label)).toEqual(['22:30', '23:00', '23:30', '2026-12-03', '00:30', '01:00', '01:30', '02:00']);
  expect(ticks(t('2026-12-03T11:30:00Z'), t('2026-12-03T11:31:00Z')).map((k) => k.label)).toEqual(['11:30', '11:31']);
});
