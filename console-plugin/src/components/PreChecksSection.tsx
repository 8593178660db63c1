import { Alert, AlertVariant, Button, Label, Title, Tooltip } from '@patternfly/react-core';
import { useState } from 'react';
import { k8sPatch, useAccessReview } from '@openshift-console/dynamic-plugin-sdk';
import { group, UpdatePlanModel } from '../model/models';
import type { UpdatePlan } from '../model/types';
import { acceptAction, acceptPatch, accessReason, Finding, planView } from '../view/prechecks';
import { SimpleTable } from './SimpleTable';

// accept writes the finding's acceptance as `pre-checks --accept` does,
// with the SDK's k8sPatch (k8sPatchResource: a JSON patch of the plan).
const accept = (plan: UpdatePlan, f: Finding) => {
  const data = acceptPatch(plan, f);
  return data
    ? k8sPatch({ model: UpdatePlanModel, resource: plan, data })
    : Promise.resolve();
};

const PlanFindings = ({ plan, now }: { plan: UpdatePlan; now: Date }) => {
  const view = planView(plan, now);
  // Whether the user may patch this plan: the SDK's access review, a
  // SelfSubjectAccessReview (frontend/packages/console-dynamic-plugin-sdk/
  // src/app/components/utils/rbac.tsx).
  const [allowed, loading] = useAccessReview({ group, resource: 'updateplans', verb: 'patch', name: view.name });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const toAccept = view.findings.filter((f) => f.needsAcceptance);
  // Said once above the table, as well as on each disabled action.
  const notAllowed = !loading && toAccept.some((f) => !f.accepted) ? accessReason({ allowed, loading }) : undefined;
  return (
    <section data-test={`plan-${view.name}`}>
      <Title headingLevel="h3">{`Update to ${view.targetRelease}`}</Title>
      <p>{`Evaluated: ${view.evaluated}`}</p>
      {view.conditions.map((c) => (
        <p key={c.type}>{`${c.type}: ${c.text}`}</p>
      ))}
      {view.staleInformers.map((i) => (
        <Alert key={i} isInline isPlain variant={AlertVariant.warning} title={`${i} did not answer the last evaluation: its findings are from its last answer.`} />
      ))}
      {view.findings
        .filter((f) => !f.needsAcceptance)
        .map((f) => (
          <p key={f.identity}>{`Status: ${f.summary} (${f.informer})`}</p>
        ))}
      {notAllowed && <Alert isInline variant={AlertVariant.info} title={notAllowed} data-test="accept-not-allowed" />}
      {error && <Alert isInline variant={AlertVariant.danger} title={error} data-test="accept-error" />}
      {toAccept.length === 0 ? (
        <p>No finding needs accepting.</p>
      ) : (
        <SimpleTable
          label={`Findings of UpdatePlan ${view.name}`}
          columns={[
            { title: 'Level' },
            { title: 'Informer' },
            { title: 'Scope' },
            { title: 'Accepted' },
            { title: 'Summary' },
            { title: 'Actions', screenReaderOnly: true },
          ]}
          rows={toAccept.map((f) => {
            const action = acceptAction(f, { allowed, loading });
            return {
              key: f.identity,
              testId: 'finding',
              attrs: { 'data-identity': f.identity },
              cells: [
                <Label key="l" color={f.level === 'critical' || f.level === 'error' ? 'red' : f.level === 'warning' ? 'orange' : 'blue'}>
                  {f.levelText}
                </Label>,
                f.informer,
                f.scope,
                f.accepted ? 'Yes' : 'No',
                <>
                  {f.summary}
                  {f.reference && (
                    <>
                      {' '}
                      <a href={f.reference} target="_blank" rel="noopener noreferrer">
                        Reference
                      </a>
                    </>
                  )}
                </>,
                <Tooltip key="t" content={action.enabled ? `Accept ${f.identity}` : action.reason}>
                  <Button
                    variant="secondary"
                    isAriaDisabled={!action.enabled || busy === f.identity}
                    isLoading={busy === f.identity}
                    data-test="accept"
                    onClick={() => {
                      setBusy(f.identity);
                      setError(undefined);
                      accept(plan, f)
                        .catch((e: { message?: string }) =>
                          setError(`Accepting in UpdatePlan ${view.name} failed: ${e?.message ?? e}. If the plan changed meanwhile, try again.`),
                        )
                        .finally(() => setBusy(undefined));
                    }}
                  >
                    Accept
                  </Button>
                </Tooltip>,
              ],
            };
          })}
        />
      )}
    </section>
  );
};

// PreChecksSection shows each UpdatePlan's findings, as pre-checks prints
// them, with an Accept action.
export const PreChecksSection = ({ plans, now }: { plans: UpdatePlan[]; now: Date }) => (
  <section data-test="pre-checks">
    <Title headingLevel="h2">Pre-checks</Title>
    {plans.length === 0 ? (
      <p>No UpdatePlan: run update-insights-operator pre-checks --to VERSION to evaluate an update.</p>
    ) : (
      [...plans]
        .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1))
        .map((p) => <PlanFindings key={p.metadata?.name} plan={p} now={now} />)
    )}
  </section>
);
