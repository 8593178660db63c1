// The update history rendered to HTML on the server (react-dom/server),
// the SDK's watch stubbed to hand it the golden records
// (test/testdata/golden/history/records.yaml): the section says it loads,
// fails or has nothing as it should, lists the updates as `history` does,
// and a chosen update's postmortem draws its timeline and lays out its
// tables. It shows nothing of a browser's rendering.
import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import { renderToStaticMarkup } from 'react-dom/server';
import { useK8sWatchResource } from '@openshift-console/dynamic-plugin-sdk';
import type { UpdateRecord } from '../model/types';
import { HistorySection } from '../components/HistorySection';
import { UpdatePostmortem } from '../components/UpdatePostmortem';

jest.mock('@openshift-console/dynamic-plugin-sdk', () => ({ useK8sWatchResource: jest.fn() }));

const golden = path.resolve(__dirname, '../../../test/testdata/golden/history');
const { items: records } = load(fs.readFileSync(path.join(golden, 'records.yaml'), 'utf8')) as { items: UpdateRecord[] };
const now = new Date('2026-12-03T12:00:00Z');

const watching = (data: unknown, loaded: boolean, error?: unknown) =>
  jest.mocked(useK8sWatchResource).mockReturnValue([data, loaded, error] as never);

const count = (html: string, testId: string) => (html.match(new RegExp(`data-test="${testId}"`, 'g')) ?? []).length;

const cells = (html: string) =>
  [...html.matchAll(/<tr class="pf-v6-c-table__tr" data-test="history-row"[^>]*>(.*?)<\/tr>/gs)].map((row) =>
    [...row[1].matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, '')),
  );

test('the updates, the newest first, each cell as history prints it', () => {
  watching(records, true);
  const html = renderToStaticMarkup(<HistorySection now={now} />);
  expect(cells(html)).toEqual([
    ['4.16.13', '4.16.12', '2026-12-03T11:30:00Z', 'Progressing', '29m', '29m', '0', '-'],
    ['4.16.12', '4.15.30', '2026-11-20T09:00:00Z', 'Completed (partly observed)', '1h50m', '1h12m', '1 (14m)', 'on time (at 50%)'],
  ]);
  expect(count(html, 'update-postmortem')).toBe(0);
  expect(count(html, 'history-unseen')).toBe(0);
});

test('an update in progress whose record has not been written since is said last seen, not current', () => {
  watching(records, true);
  const html = renderToStaticMarkup(<HistorySection now={new Date('2026-12-04T01:00:00Z')} />);
  expect(html).toContain(
    'The update to 4.16.13 was last seen in progress at 2026-12-03T11:59:00Z (13h1m ago): a running operator writes its record at least every 5 minutes, so no operator has seen it since.',
  );
});

test.each([
  ['loading', [[], false, undefined], 'Loading the update records'],
  ['empty', [[], true, undefined], 'No update is recorded: the operator records each update it sees from when it is installed.'],
  ['failed', [records, true, new Error('updaterecords.openshift.muller.dev is forbidden')], 'Cannot read the update records: updaterecords.openshift.muller.dev is forbidden'],
])('%s: says so, and lists nothing', (_, [data, loaded, error], says) => {
  watching(data, loaded as boolean, error);
  const html = renderToStaticMarkup(<HistorySection now={now} />);
  expect(html).toContain(says as string);
  // A failed watch's last data is not shown as current.
  expect(count(html, 'history-row')).toBe(0);
});

describe('the postmortem of the completed update', () => {
  const html = renderToStaticMarkup(<UpdatePostmortem record={records.find((r) => r.metadata?.name === '4.16.12-20261120-090000')!} now={now} />);

  test('draws a bar per operator and pool seen updating, the stall, the span not observed, the start, the completions and each estimate', () => {
    expect([...html.matchAll(/data-test="timeline-operator" data-name="([^"]+)" data-open="false"/g)].map((m) => m[1])).toEqual(['etcd', 'kube-apiserver']);
    expect([...html.matchAll(/data-test="timeline-pool" data-name="([^"]+)" data-open="false"/g)].map((m) => m[1])).toEqual(['worker', 'master']);
    expect(html).toContain('data-test="timeline-stall" data-level="Warning" data-name="drain-worker-a"');
    expect(html).toMatch(/data-test="timeline-not-observed" data-since="false">.*?not observed<\/text>/s);
    expect(['timeline-started', 'timeline-completed', 'timeline-update-completed', 'timeline-last-seen'].map((m) => count(html, m))).toEqual([1, 1, 1, 0]);
    expect([...html.matchAll(/data-test="timeline-estimate" data-percent="(\d+)"/g)].map((m) => m[1])).toEqual(['25', '50', '75']);
    expect(html).toContain('1 ClusterOperator updated unseen, with no start to draw');
    // Colours are the theme's.
    expect(html).toContain('fill:var(--pf-t--global--color--status--warning--default)');
  });

  test('lays out the head and the tables as history prints them', () => {
    expect(html).toContain('Update to 4.16.12 from 4.15.30');
    expect(html).toContain('2026-11-20T10:50:00Z (1h50m), its pools with its control plane');
    expect(html).toContain('3 of 3 nodes updated, 3 timed; from 2026-11-20T09:40:00Z to 2026-11-20T10:50:00Z (1h10m)');
    expect(html).toContain('Per node: median 25m, 90th percentile 38m, of 3 timed');
    expect(html).toContain('2026-11-20T09:00:00Z to 2026-11-20T09:03:00Z (3m): no operator saw the update');
    expect(html).toContain('1 more updated unseen, with no duration to tell');
    for (const row of [
      ['kube-apiserver', '2026-11-20T09:25:00Z', '2026-11-20T10:00:00Z', '35m'],
      ['Warning', '2026-11-20T09:40:00Z', '2026-11-20T09:54:00Z', '14m', 'Drain of node worker-a held by pod shop/api-0 under disruption budget shop/api'],
      ['27%', '2026-11-20T09:20:00Z', '2026-11-20T10:24:00Z', '2026-11-20T10:12:00Z', '12m early'],
      ['Rebooting', '2026-11-20T10:08:00Z', '2026-11-20T10:50:00Z'],
      ['worker-a', '2026-11-20T09:40:00Z', '2026-11-20T10:18:00Z', '38m', '16m', '12m', '10m'],
    ]) {
      expect(html).toMatch(new RegExp(row.map((c) => `<td[^>]*>${c}</td>`).join('')));
    }
  });
});

test("a record not yet written: its postmortem says there is nothing to draw", () => {
  const html = renderToStaticMarkup(<UpdatePostmortem record={{ metadata: { name: '4.17.0-20261202-000000' } }} now={now} />);
  expect(html).toContain('data-test="timeline-none"');
  expect(html).not.toContain('data-test="update-timeline"');
});
