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
import { useT, type MessageKey } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

const STATUS: Record<WebhookDeliveryStatus, { label: MessageKey; bg: string }> = {
  pending: { label: 'wallet.pending', bg: 'secondary' },
  retrying: { label: 'ipnStatus.retrying', bg: 'warning' },
  delivered: { label: 'ipnStatus.delivered', bg: 'success' },
  failed: { label: 'txStatus.failed', bg: 'danger' },
};

function DeliveryStatus({ status }: { status: WebhookDeliveryStatus }) {
  const t = useT();
  const { label, bg } = STATUS[status];
  return (
    <Badge bg={bg} text={bg === 'warning' ? 'dark' : undefined}>
      {t(label)}
    </Badge>
  );
}

/** IPN Logs: the app's webhook deliveries; View Details shows the signed payload and attempts. */
export function IpnLogsTab({ appId }: { appId: string }) {
  const t = useT();
  const list = usePagedList(appId, 'callback_data');
  const [shown, setShown] = useState<IpnLog | null>(null);
  const columns: Column<IpnLog>[] = [
    { header: t('tx.clientId'), className: 'text-nowrap', cell: (log) => log.unique_id || '—' },
    {
      header: t('ipn.event'),
      cell: (log) => (
        <>
          <code>{log.event}</code>
          {log.redelivery && (
            <span className="small text-muted ms-1">{t('ipn.redeliveryNote')}</span>
          )}
        </>
      ),
    },
    {
      header: t('dashboard.time'),
      className: 'time-cell',
      cell: (log) => <DateTime value={log.created_at} />,
    },
    { header: t('wallet.status'), cell: (log) => <DeliveryStatus status={log.status} /> },
    { header: 'HTTP', numeric: true, cell: (log) => log.http_code ?? '—' },
    { header: t('ipn.attempts'), numeric: true, cell: (log) => log.attempts },
    {
      header: t('history.action'),
      cell: (log) => (
        <Button
          size="sm"
          variant="outline-primary"
          className="text-nowrap"
          onClick={() => setShown(log)}
        >
          {t('appCard.viewDetails')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <DownloadCsvButton kind="ipn_logs" appId={appId} />
      <ListTable caption={t('ipn.caption')} columns={columns} rowKey={(log) => log.id} {...list} />
      <TitledModal
        show={shown !== null}
        onHide={() => setShown(null)}
        size="lg"
        title={shown ? `${shown.event} · ${shown.unique_id || shown.id}` : t('ipn.details')}
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
  const t = useT();
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
        {log.redelivery && <Badge bg="info">{t('ipn.redelivery')}</Badge>}
        <span className="small text-muted">{t('ipn.attemptCount', { count: log.attempts })}</span>
        <BusyButton
          size="sm"
          variant="outline-primary"
          className="ms-auto"
          busy={redelivering.isLoading}
          disabled={log.pruned || redelivering.isLoading}
          onClick={() => void again()}
        >
          {t('ipn.redeliver')}
        </BusyButton>
      </div>
      <DeliveryOutcome answer={outcome} className="mb-2" />
      <h3 className="h6">{t('ipn.payload')}</h3>
      {log.pruned ? (
        <p className="small text-muted" role="status">
          {t('ipn.pruned')}
        </p>
      ) : (
        <JsonView text={log.data} />
      )}
      <QueryState query={details} what={t('ipn.what')}>
        {({ data }) => (
          <>
            {data.last_error && <p className="small text-danger mt-2">{data.last_error}</p>}
            {data.next_attempt_at && (
              <p className="small mt-2">
                {withNodes(
                  t,
                  'ipn.nextAttempt',
                  {},
                  { when: <DateTime value={data.next_attempt_at} /> },
                )}
              </p>
            )}
            <h3 className="h6 mt-3">{t('ipn.attempts')}</h3>
            {data.attempts_made.length === 0 ? (
              <p className="small text-muted">{t('ipn.notAttempted')}</p>
            ) : (
              <Table size="sm" className="small">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>{t('dashboard.time')}</th>
                    <th>{t('ipn.outcome')}</th>
                    <th>HTTP</th>
                    <th>{t('ipn.response')}</th>
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
                <h3 className="h6">{t('ipn.headersTitle')}</h3>
                <pre className="small bg-light p-2 request-headers" aria-label={t('ipn.headers')}>
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
