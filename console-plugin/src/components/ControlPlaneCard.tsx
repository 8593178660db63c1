import {
  Card,
  CardBody,
  CardTitle,
  DescriptionList,
  DescriptionListDescription,
  DescriptionListGroup,
  DescriptionListTerm,
  Progress,
  ProgressVariant,
} from '@patternfly/react-core';
import type { StatusView } from '../view/status';
import { isStalled, rfc3339 } from '../view/format';

const Item = ({ term, children }: { term: string; children: React.ReactNode }) => (
  <DescriptionListGroup>
    <DescriptionListTerm>{term}</DescriptionListTerm>
    <DescriptionListDescription>{children}</DescriptionListDescription>
  </DescriptionListGroup>
);

// progressVariant colours the bar of an update past its estimate: danger
// once Stalled, warning while slow.
const progressVariant = (assessment: string): ProgressVariant | undefined => {
  if (isStalled(assessment)) {
    return ProgressVariant.danger;
  }
  return assessment === 'ProgressingSlow' ? ProgressVariant.warning : undefined;
};

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
              title={cp.completionText}
              variant={progressVariant(cp.assessment)}
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
          </>
        )}
        {view.controlPlaneNodesText && <p>{view.controlPlaneNodesText}</p>}
      </CardBody>
    </Card>
  );
};
