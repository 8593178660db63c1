import { informerViews } from '../view/informers';
import { condition, informer } from './fixtures';

describe('UpdateInformers', () => {
  const now = new Date('2026-11-23T00:00:00Z');
  test.each([
    ['online', informer('etcd-backup', condition('Online', 'True', 'AsExpected'), '2026-11-22T23:58:00Z'), { online: 'Online', lastContact: '2m', enabled: true }],
    ['unreachable', informer('node-tuning', condition('Online', 'False', 'Unreachable', 'connection refused'), '2026-11-22T22:00:00Z'), { online: 'Offline', reason: 'Unreachable', message: 'connection refused', lastContact: '2h' }],
    ['disabled by the administrator', informer('noisy', condition('Online', 'False', 'Disabled'), undefined, false), { online: 'Offline', reason: 'Disabled', enabled: false, lastContact: '-' }],
    ['not called yet', informer('new', undefined), { online: 'Unknown', lastContact: '-' }],
  ])('%s', (_, i, want) => {
    expect(informerViews([i], now)[0]).toMatchObject({ ...want, handlers: ['status', 'plan'] });
  });

  test('sorted by name', () => {
    const views = informerViews([informer('b', undefined), informer('a', undefined)], now);
    expect(views.map((v) => v.name)).toEqual(['a', 'b']);
  });
});
