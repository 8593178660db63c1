import { Alert, AlertVariant, ExpandableSection, Title } from '@patternfly/react-core';
import { byLevel, HealthView } from '../view/health';

const variant = (level: string): AlertVariant =>
  level === 'Critical' || level === 'Error'
    ? AlertVariant.danger
    : level === 'Warning'
      ? AlertVariant.warning
      : AlertVariant.info;

// HealthSection lists the health insights by level, each with its summary
// and, expanded, its description, resources and remediation link.
export const HealthSection = ({ health, startedSince }: { health: HealthView[]; startedSince: string }) => (
  <section data-test="health">
    <Title headingLevel="h2">Update health</Title>
    {health.length === 0 && (
      <Alert isInline isPlain variant={AlertVariant.success} title="Update is proceeding well">
        {`Since ${startedSince}: no health insight.`}
      </Alert>
    )}
    {byLevel(health).map((group) => (
      <div key={group.level} data-test={`health-${group.level}`}>
        <Title headingLevel="h3">{`${group.level} (${group.items.length})`}</Title>
        {group.items.map((h) => (
          <Alert key={h.name} isInline variant={variant(h.level)} title={h.message} data-test="health-insight">
            <p>{`Since ${h.since} · Impact: ${h.impact} · Scope: ${h.scope}`}</p>
            <ExpandableSection toggleText="Details">
              {h.description && <p style={{ whiteSpace: 'pre-wrap' }}>{h.description}</p>}
              {h.resources.length > 0 && (
                <ul>
                  {h.resources.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              )}
            </ExpandableSection>
            {h.reference.startsWith('http') ? (
              <a href={h.reference} target="_blank" rel="noopener noreferrer">
                Remediation
              </a>
            ) : (
              <p>{`Reference: ${h.reference}`}</p>
            )}
          </Alert>
        ))}
      </div>
    ))}
  </section>
);
