import {
  Alert,
  AlertVariant,
  DescriptionList,
  DescriptionListDescription,
  DescriptionListGroup,
  DescriptionListTerm,
  Title,
} from '@patternfly/react-core';
import { byLevel, HealthView } from '../view/health';
import { levelSeverity } from '../view/severity';

const variant = (level: string): AlertVariant => AlertVariant[levelSeverity(level)];

const Term = ({ term, children }: { term: string; children: React.ReactNode }) => (
  <DescriptionListGroup>
    <DescriptionListTerm>{term}</DescriptionListTerm>
    <DescriptionListDescription>{children}</DescriptionListDescription>
  </DescriptionListGroup>
);

// HealthSection lists the health insights by level, each with what
// `status --details=health` prints under it (pkg/statusview text.go):
// since when, impact, scope, reference, resources and description, all
// shown, none behind a toggle.
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
            <DescriptionList isCompact isHorizontal>
              <Term term="Since">{h.since}</Term>
              <Term term="Impact">{h.impact}</Term>
              <Term term="Scope">{h.scope}</Term>
              <Term term="Reference">
                {h.reference.startsWith('http') ? (
                  <a href={h.reference} target="_blank" rel="noopener noreferrer">
                    {h.reference}
                  </a>
                ) : (
                  h.reference
                )}
              </Term>
              {h.resources.length > 0 && (
                <Term term="Resources">
                  <ul>
                    {h.resources.map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                </Term>
              )}
              {h.description && (
                <Term term="Description">
                  <span style={{ whiteSpace: 'pre-wrap' }}>{h.description}</span>
                </Term>
              )}
            </DescriptionList>
          </Alert>
        ))}
      </div>
    ))}
  </section>
);
