import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import type { IpnLog } from '../../../api/apps';
import {
  useGetWebhookDeliveryQuery,
  useRedeliverWebhookMutation,
  type WebhookDeliveryResponse,
  type WebhookDeliveryStatus,
} from '../../../api/webhooks';
import { BusyButton } from '../../../components/BusyButton';
import { QueryState } from '../../../components/QueryState';
import type { Column } from '../../../components/DataTable';
import { DeliveryOutcome } from './DeliveryOutcome';
import { JsonView } from './JsonView';
import { ListTable } from './ListTable';
import { DateTime } from '../../../components/DateTime';
import { usePagedList } from './usePagedList';
import { TitledModal } from '../../../components/TitledModal';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';

const STATUS: Record<WebhookDeliveryStatus, { label: string; bg: string }> = {
  pending: { label: 'Pending', bg: 'secondary' },
  retrying: { label: 'Retrying', bg: 'warning' },
  delivered: { label: 'Delivered', bg: 'success' },
  failed: { label: 'Failed', bg: 'danger' },
};

function DeliveryStatus({ status }: { status: WebhookDeliveryStatus }) {
  const { label, bg } = STATUS[status];
  return (
    <Badge bg={bg} text={bg === 'warning' ? 'dark' : undefined}>
      {label}
    </Badge>
  );
}

/** IPN Logs: the app's webhook deliveries; View Details shows the signed payload and attempts. */
export function IpnLogsTab({ appId }: { appId: string }) {
  const list = usePagedList(appId, 'callback_data');
  const [shown, setShown] = useState<IpnLog | null>(null);
  const columns: Column<IpnLog>[] = [
    { header: 'Client Id', className: 'text-nowrap', cell: (log) => log.unique_id || '—' },
    {
      header: 'Event',
      cell: (log) => (
        <>
          <code>{log.event}</code>
          {log.redelivery && <span className="small text-muted ms-1">(redelivery)</span>}
        </>
      ),
    },
    {
      header: 'Time',
      className: 'time-cell',
      cell: (log) => <DateTime value={log.created_at} />,
    },
    { header: 'Status', cell: (log) => <DeliveryStatus status={log.status} /> },
    { header: 'HTTP', numeric: true, cell: (log) => log.http_code ?? '—' },
    { header: 'Attempts', numeric: true, cell: (log) => log.attempts },
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
      <DownloadCsvButton kind="ipn_logs" appId={appId} />
      <ListTable caption="IPN logs" columns={columns} rowKey={(log) => log.id} {...list} />
      <TitledModal
        show={shown !== null}
        onHide={() => setShown(null)}
        size="lg"
        title={shown ? `${shown.event} · ${shown.unique_id || shown.id}` : 'IPN Details'}
      >
        <Modal.Body>{shown && <DeliveryDetails log={shown} onRedelivered={setShown} />}</Modal.Body>
      </TitledModal>
    </>
  );
}

function DeliveryDetails({
  log,
  onRedelivered,
}: {
  log: IpnLog;
  onRedelivered: (log: IpnLog) => void;
}) {
  const details = useGetWebhookDeliveryQuery({ id: log.id });
  const [redeliver, redelivering] = useRedeliverWebhookMutation();
  const [outcome, setOutcome] = useState<WebhookDeliveryResponse | null>(null);
  // A failure is toasted by the API feedback middleware; only a redelivery changes the view.
  const again = async () => {
    const { data: answer } = await redeliver({ id: log.id });
    if (!answer) return;
    setOutcome(answer);
    onRedelivered(answer.data.delivery);
  };
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <DeliveryStatus status={log.status} />
        {log.redelivery && <Badge bg="info">Redelivery</Badge>}
        <span className="small text-muted">
          {log.attempts} attempt{log.attempts === 1 ? '' : 's'}
        </span>
        <BusyButton
          size="sm"
          variant="outline-primary"
          className="ms-auto"
          busy={redelivering.isLoading}
          disabled={log.pruned || redelivering.isLoading}
          onClick={() => void again()}
        >
          Redeliver
        </BusyButton>
      </div>
      <DeliveryOutcome answer={outcome} className="mb-2" />
      <h3 className="h6">Payload</h3>
      {log.pruned ? (
        <p className="small text-muted" role="status">
          The payload was pruned: request and response bodies are removed after the retention
          period, so this delivery cannot be redelivered.
        </p>
      ) : (
        <JsonView text={log.data} />
      )}
      <QueryState query={details} what="the delivery">
        {({ data }) => (
          <>
            {data.last_error && <p className="small text-danger mt-2">{data.last_error}</p>}
            {data.next_attempt_at && (
              <p className="small mt-2">
                Next attempt: <DateTime value={data.next_attempt_at} />
              </p>
            )}
            <h3 className="h6 mt-3">Attempts</h3>
            {data.attempts_made.length === 0 ? (
              <p className="small text-muted">Not attempted yet.</p>
            ) : (
              <Table size="sm" className="small">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>Time</th>
                    <th>Outcome</th>
                    <th>HTTP</th>
                    <th>Response</th>
                  </tr>
                </thead>
                <tbody>
                  {data.attempts_made.map((a) => (
                    <tr key={a.attempt}>
                      <td>{a.attempt}</td>
                      <td className="time-cell">
                        <DateTime value={a.at} />
                      </td>
                      <td>{a.outcome}</td>
                      <td>{a.status_code ?? '—'}</td>
                      <td className="text-break">
                        <code>{a.response_excerpt ?? a.error ?? ''}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
            {data.attempts_made.length > 0 && (
              <>
                <h3 className="h6">Request headers (last attempt)</h3>
                <pre className="small bg-light p-2 request-headers" aria-label="Request headers">
                  {Object.entries(data.attempts_made.at(-1)?.request_headers ?? {})
                    .map(([name, value]) => `${name}: ${value}`)
                    .join('\n')}
                </pre>
              </>
            )}
          </>
        )}
      </QueryState>
    </>
  );
}
