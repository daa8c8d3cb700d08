import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { IpnLog } from '../../../api/apps';
import type { Column } from '../../../components/DataTable';
import { JsonView } from './JsonView';
import { ListTable } from './ListTable';
import { ShortDateTime } from './ShortDateTime';
import { usePagedList } from './usePagedList';
import { TitledModal } from '../../../components/TitledModal';

export function IpnLogsTab({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'callback_data');
  const [shown, setShown] = useState<IpnLog | null>(null);
  const columns: Column<IpnLog>[] = [
    { header: 'Client Id', className: 'text-nowrap', cell: (log) => log.unique_id },
    { header: 'Event', cell: (log) => <code>{log.event}</code> },
    {
      header: 'Time',
      className: 'time-cell',
      cell: (log) => <ShortDateTime value={log.created_at} />,
    },
    {
      header: 'Action',
      cell: (log) => (
        <Button
          size="sm"
          variant="outline-primary"
          className="text-nowrap"
          onClick={() => setShown(log)}
        >
          View Details
        </Button>
      ),
    },
  ];
  return (
    <>
      <ListTable caption="IPN logs" columns={columns} rowKey={(log) => log.id} {...list} />
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
