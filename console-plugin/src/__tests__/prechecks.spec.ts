import { acceptAction, acceptedInsights, acceptPatch, accessReason, findings, planView } from '../view/prechecks';
import { plan } from './fixtures';

describe('the findings of an UpdatePlan', () => {
  const view = planView(plan(), new Date('2023-11-03T17:28:00Z'));

  test('the most serious first, otherwise in the plan order: control plane, then pools', () => {
    expect(view.findings.map((f) => [f.levelText, f.informer, f.pool, f.accepted, f.needsAcceptance])).toEqual([
      ['Error', 'update-insights-operator', '', true, true],
      ['Error', 'mco-informer', 'worker', false, true],
      ['Warning', 'update-insights-operator', '', false, true],
      ['Status', 'update-insights-operator', '', false, false],
    ]);
  });

  test('scopes as pre-checks --details prints them (test/testdata/golden/prechecks/4.14.1-degraded.txt)', () => {
    expect(view.findings.map((f) => f.scope)).toEqual([
      'ControlPlane (ClusterVersion.config.openshift.io/version)',
      'WorkerPool worker (PodDisruptionBudget.policy/app/app)',
      'ControlPlane (ClusterOperator.config.openshift.io/etcd)',
      'ControlPlane (ClusterVersion.config.openshift.io/version)',
    ]);
  });

  test('the plan lines: evaluated, conditions, informers that did not answer', () => {
    expect(view.evaluated).toBe('2023-11-03T17:26:54Z (1m6s ago)');
    expect(view.conditions).toEqual([
      { type: 'Answered', text: 'True (AllAnswered) every informer answered' },
      { type: 'Accepted', text: 'False (NotAccepted) 2 findings are not accepted' },
    ]);
    expect(view.staleInformers).toEqual(['mco-informer']);
  });

  test('a plan not evaluated yet', () => {
    const p = plan();
    delete p.status;
    expect(planView(p, new Date()).evaluated).toBe('not yet');
    expect(planView(p, new Date()).findings).toEqual([]);
  });
});

describe('the Accept action', () => {
  const [failing, pdb, , status] = findings(plan());
  test.each([
    ['enabled for a finding to accept, by whoever may patch UpdatePlans', pdb, { allowed: true, loading: false }, { enabled: true }],
    ['disabled, with why, for whoever may not', pdb, { allowed: false, loading: false }, { enabled: false, reason: expect.stringMatching(/^You may not patch UpdatePlans \(updateplans.openshift.muller.dev\)/) }],
    ['disabled while access is checked', pdb, { allowed: false, loading: true }, { enabled: false, reason: expect.stringMatching(/^Checking/) }],
    ['disabled once accepted', failing, { allowed: true, loading: false }, { enabled: false, reason: 'Accepted.' }],
    ['disabled for a status finding', status, { allowed: true, loading: false }, { enabled: false, reason: expect.stringMatching(/needs no acceptance/) }],
  ])('%s', (_, f, access, want) => {
    expect(acceptAction(f, access)).toEqual(want);
  });
});

describe('why the user may not accept, said once above the findings', () => {
  test.each([
    ['may patch', { allowed: true, loading: false }, undefined],
    ['may not', { allowed: false, loading: false }, expect.stringMatching(/^You may not patch UpdatePlans/)],
    ['not known yet', { allowed: false, loading: true }, expect.stringMatching(/^Checking/)],
  ])('%s', (_, access, want) => {
    expect(accessReason(access)).toEqual(want);
  });
});

// What pre-checks --accept writes (pkg/planview/accept.go Accept): the
// entry {updateInformer, uid: identity, accepted: true}, appended, or an
// existing entry of that informer and identity set to accepted; nothing
// when it is accepted already.
describe('what accepting writes', () => {
  const pdb = { informer: 'mco-informer', identity: 'mco-informer/WorkerPool/PodDisruptionBudget.policy/app/app/pdb/app' };
  const other = { updateInformer: 'update-insights-operator', uid: 'update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/cluster-failing', accepted: true };
  test.each([
    ['the first entry', undefined, [{ updateInformer: pdb.informer, uid: pdb.identity, accepted: true }]],
    ['appended after those there', [other], [other, { updateInformer: pdb.informer, uid: pdb.identity, accepted: true }]],
    ['an entry withdrawn before, accepted again in place', [{ updateInformer: pdb.informer, uid: pdb.identity, accepted: false }, other], [{ updateInformer: pdb.informer, uid: pdb.identity, accepted: true }, other]],
    ['nothing when accepted already', [{ updateInformer: pdb.informer, uid: pdb.identity, accepted: true }], undefined],
  ])('%s', (_, current, want) => {
    expect(acceptedInsights(plan(current), pdb)).toEqual(want);
  });

  test('the patch holds the plan to the version read, and sets the whole list', () => {
    expect(acceptPatch(plan([other]), pdb)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '4711' },
      { op: 'add', path: '/spec/acceptedInsights', value: [other, { updateInformer: pdb.informer, uid: pdb.identity, accepted: true }] },
    ]);
    expect(acceptPatch(plan([{ ...other, uid: pdb.identity, updateInformer: pdb.informer }]), pdb)).toBeUndefined();
  });
});
