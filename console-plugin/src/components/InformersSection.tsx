import { Label, Title } from '@patternfly/react-core';
import type { InformerView } from '../view/informers';
import { SimpleTable } from './SimpleTable';

// InformersSection lists each UpdateInformer and whether it is online.
export const InformersSection = ({ informers }: { informers: InformerView[] }) => (
  <section data-test="informers">
    <Title headingLevel="h2">Update informers</Title>
    {informers.length === 0 ? (
      <p>No UpdateInformer is registered: the operator's own insights are all there is.</p>
    ) : (
      <SimpleTable
        label="Update informers"
        columns={['Name', 'Online', 'Last contact', 'Handles', 'Message'].map((title) => ({ title }))}
        rows={informers.map((i) => ({
          key: i.name,
          testId: `informer-${i.name}`,
          cells: [
            i.name,
            <Label key="o" color={i.online === 'Online' ? 'green' : i.online === 'Offline' ? 'red' : 'grey'}>
              {i.reason && i.online !== 'Online' ? `${i.online} (${i.reason})` : i.online}
            </Label>,
            i.lastContact,
            i.handlers.join(', '),
            i.message,
          ],
        }))}
      />
    )}
  </section>
);
