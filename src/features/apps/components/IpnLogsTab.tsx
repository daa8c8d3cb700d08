import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { IpnLog } from '../../../api/apps';
import { JsonView } from './JsonView';
import { ListTable } from './ListTable';
import { ShortDateTime } from './ShortDateTime';
import { usePagedList } from './usePagedList';
import { TitledModal } from '../../../components/TitledModal';

export function IpnLogsTab({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'callback_data');
  const [shown, setShown] = useState<IpnLog | null>(null);
  return (
    <>
      <ListTable
        caption="IPN logs"
        columns={['Client Id', 'Event', 'Time', 'Action']}
        {...list}
        row={(log) => (
          <tr key={log.id}>
            <td className="text-nowrap">{log.unique_id}</td>
            <td>
              <code>{log.event}</code>
            </td>
            <td className="time-cell">
              <ShortDateTime value={log.created_at} />
            </td>
            <td>
              <Button
                size="sm"
                variant="outline-primary"
                className="text-nowrap"
                onClick={() => setShown(log)}
              >
                View Details
              </Button>
            </td>
          </tr>
        )}
      />
      <TitledModal
        show={shown !== null}
        onHide={() => setShown(null)}
        size="lg"
        title={shown ? `${shown.event} · ${shown.unique_id}` : 'IPN Details'}
      >
        <Modal.Body>{shown && <JsonView text={shown.data} />}</Modal.Body>
      </TitledModal>
    </>
  );
}
