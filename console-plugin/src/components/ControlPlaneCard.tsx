import {
  Card,
  CardBody,
  CardTitle,
  DescriptionList,
  DescriptionListDescription,
  DescriptionListGroup,
  DescriptionListTerm,
  Progress,
  Title,
} from '@patternfly/react-core';
import type { StatusView } from '../view/status';
import type { UpdatingOperator } from '../view/operators';
import { rfc3339 } from '../view/format';
import { controlPlaneSeverity, progressVariant } from '../view/severity';
import { SimpleTable } from './SimpleTable';

const Item = ({ term, children }: { term: string; children: React.ReactNode }) => (
  <DescriptionListGroup>
    <DescriptionListTerm>{term}</DescriptionListTerm>
    <DescriptionListDescription>{children}</DescriptionListDescription>
  </DescriptionListGroup>
);

// UpdatingOperators is the table `status --details=operators` prints
// under the control plane, as oc prints it (pkg/cli/admin/upgrade/status/
// controlplane.go Write): each updating operator's name, how long it has
// been updating, its Progressing reason cut to 20 characters (all of it
// on hover) and the first line of its message; each further line of the
// message continues on a row of its own, as oc continues it.
const UpdatingOperators = ({ operators }: { operators: UpdatingOperator[] }) => (
  <div data-test="updating-operators">
    <Title headingLevel="h3">Updating Cluster Operators</Title>
    <SimpleTable
      label="Updating cluster operators"
      columns={[{ title: 'Name', nowrap: true }, { title: 'Since', nowrap: true }, { title: 'Reason', nowrap: true }, { title: 'Message' }]}
      rows={operators.flatMap((o) => [
        {
          key: o.name,
          testId: `operator-${o.name}`,
          cells: [o.name, o.since, o.wholeReason ? <span key="r" title={o.wholeReason}>{o.reason}</span> : o.reason, o.lines[0]],
        },
        ...o.lines.slice(1).map((line, i) => ({ key: `${o.name}/${i + 1}`, testId: `operator-${o.name}-continued`, cells: ['', '', '', line] })),
      ])}
    />
  </div>
);

// ControlPlaneCard shows the control plane's update as status prints it:
// assessment, target, completion, duration and estimate, operator health.
export const ControlPlaneCard = ({ view }: { view: StatusView }) => {
  const cp = view.controlPlane;
  return (
    <Card data-test="control-plane">
      <CardTitle>Control plane</CardTitle>
      <CardBody>
        {cp.completedText ? (
          <p data-test="control-plane-completed">{cp.completedText}</p>
        ) : (
          <>
            <Progress
              value={cp.completion.percent}
              // PatternFly measures the bar as floor(value / 100 * 100),
              // which floating point makes 57 of 58: the label says the
              // completion the insight says.
              label={`${cp.completion.percent}%`}
              title={cp.completionText}
              variant={progressVariant(controlPlaneSeverity(view, view.health))}
              data-test="control-plane-progress"
            />
            <DescriptionList isHorizontal>
              <Item term="Assessment">{cp.assessmentText}</Item>
              <Item term="Target version">{cp.target}</Item>
              {cp.updating.length > 0 && <Item term="Updating">{cp.updating.map((o) => o.name).join(', ')}</Item>}
              <Item term="Completion">{cp.completionText}</Item>
              <Item term="Started">{cp.startedAt ? rfc3339(cp.startedAt) : '?'}</Item>
              <Item term="Duration">{cp.duration}</Item>
              {cp.estimatedTimeRemaining && (
                <Item term="Est. Time Remaining">
                  {cp.estimatedTimeRemaining}
                  {cp.estimatedFinish && ` (estimated finish ${cp.estimatedFinish})`}
                </Item>
              )}
              <Item term="Operator health">{cp.operatorHealthText}</Item>
              {cp.informers.length > 0 && (
                <Item term="Informers">
                  {cp.informers.map((p) => (
                    <div key={`${p.informer}/${p.uid}`}>{`${p.summary} (${p.note})`}</div>
                  ))}
                </Item>
              )}
            </DescriptionList>
            {cp.updating.length > 0 && <UpdatingOperators operators={cp.updating} />}
          </>
        )}
        {view.controlPlaneNodesText && <p>{view.controlPlaneNodesText}</p>}
      </CardBody>
    </Card>
  );
};
