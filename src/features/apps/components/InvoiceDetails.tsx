import { useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import {
  useAcceptAppInvoicePaymentMutation,
  useConfirmAppInvoicePaymentsMutation,
  useGetAppInvoiceQuery,
  useMarkAppInvoiceMutation,
  useSimulateAppInvoicePaymentMutation,
  type Invoice,
  type InvoiceTimelineEntry,
} from '../../../api/invoices';
import { BusyButton } from '../../../components/BusyButton';
import { CopyButton } from '../../../components/CopyButton';
import {
  DATA_TABLE_CLASS,
  DataTableHead,
  DataTableRow,
  type Column,
} from '../../../components/DataTable';
import { DateTime } from '../../../components/DateTime';
import { useForm } from '../../../components/form/useForm';
import { validSubmit } from '../../../components/form/validSubmit';
import { QueryState } from '../../../components/QueryState';
import { TitledModal } from '../../../components/TitledModal';
import { STRAY_FLAG } from '../appRules';
import {
  canAccept,
  canMark,
  DELIVERY_STATUS,
  INVOICE_FORM_MSG,
  PAYMENT_STATUS,
  TIMELINE_EVENT,
  TIMELINE_EXCEPTION,
} from '../invoiceRules';
import { canRefund } from '../refundRules';
import { InvoiceBadges } from './InvoiceBadges';
import { RefundModal } from './RefundModal';
import { RefundsList } from './RefundsList';
import { TxHash } from './TxHash';
import { LIVE } from './usePagedList';
import { useT, type MessageKey, type Translate } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

type Option = Invoice['payment_options'][number];
type Payment = Invoice['payments'][number];
type Target = 'settled' | 'invalid';

const TARGET_TITLE: Record<Target, MessageKey> = {
  settled: 'invDetail.markSettled',
  invalid: 'invDetail.markInvalid',
};

/**
 * One invoice: its figures, payment options, payments, timeline, and Mark settled / invalid; a
 * test app's invoice also its simulated payments.
 */
export function InvoiceDetails({
  appId,
  invoiceId,
  testMode = false,
  onBack,
}: {
  appId: string;
  invoiceId: string;
  /** The invoice is a test app's: it can be paid with simulated payments. */
  testMode?: boolean;
  onBack: () => void;
}) {
  const t = useT();
  // Polled as the lists are: payments and statuses arrive without a reload.
  const query = useGetAppInvoiceQuery({ id: appId, invoiceId }, LIVE);
  const [marking, setMarking] = useState<Target | null>(null);
  const [refunding, setRefunding] = useState(false);
  const [accepting, setAccepting] = useState<Payment | null>(null);

  return (
    <>
      <Button variant="link" className="px-0 mb-2" onClick={onBack}>
        &larr; {t('invDetail.back')}
      </Button>
      <QueryState query={query} what={t('invDetail.what')}>
        {({ data: { invoice, timeline } }) => {
          return (
            <>
              <Card className="mb-3">
                <Card.Body>
                  <h3 className="h6 text-break">
                    {withNodes(t, 'history.invoiceOf', {}, { id: <code>{invoice.id}</code> })}
                  </h3>
                  <dl className="row mb-0 details-list">
                    <dt className="col-sm-4">{t('wallet.status')}</dt>
                    <dd className="col-sm-8">
                      <InvoiceBadges invoice={invoice} />
                      {invoice.mark_reason && (
                        <div className="small text-body-secondary mt-1">
                          {t('invDetail.reason', { reason: invoice.mark_reason })}
                        </div>
                      )}
                    </dd>
                    <dt className="col-sm-4">{t('dashboard.amount')}</dt>
                    <dd className="col-sm-8">
                      {invoice.amount} {invoice.currency}
                    </dd>
                    <dt className="col-sm-4">{t('invDetail.paid')}</dt>
                    <dd className="col-sm-8">
                      {t('invDetail.paidDue', {
                        paid: `${invoice.paid} ${invoice.currency}`,
                        due: `${invoice.due} ${invoice.currency}`,
                      })}
                      {invoice.overpaid && (
                        <div className="small">
                          {t('invDetail.overpaid', {
                            value: `${invoice.overpaid.value} ${invoice.currency}`,
                            amount: `${invoice.overpaid.amount} ${invoice.overpaid.method}`,
                          })}
                        </div>
                      )}
                    </dd>
                    <dt className="col-sm-4">{t('inv.orderId')}</dt>
                    <dd className="col-sm-8 text-break">{invoice.order_id ?? '----'}</dd>
                    <dt className="col-sm-4">{t('invDetail.description')}</dt>
                    <dd className="col-sm-8 text-break">{invoice.description ?? '----'}</dd>
                    <dt className="col-sm-4">{t('inv.created')}</dt>
                    <dd className="col-sm-8">
                      <DateTime value={invoice.created_at} />
                    </dd>
                    <dt className="col-sm-4">{t('inv.expires')}</dt>
                    <dd className="col-sm-8">
                      <DateTime value={invoice.expires_at} />
                    </dd>
                    <dt className="col-sm-4">{t('invDetail.checkout')}</dt>
                    <dd className="col-sm-8 d-flex gap-2 align-items-center">
                      <span className="text-break small">{invoice.checkout_url}</span>
                      <CopyButton
                        value={invoice.checkout_url}
                        label={t('invDetail.copyCheckout')}
                        successText={t('invDetail.checkoutCopied')}
                        className="flex-shrink-0"
                      >
                        {t('copy.label')}
                      </CopyButton>
                    </dd>
                  </dl>
                  {(canMark(invoice.status, 'settled') ||
                    canMark(invoice.status, 'invalid') ||
                    canRefund(invoice)) && (
                    <div className="d-flex gap-2 mt-3">
                      {canMark(invoice.status, 'settled') && (
                        <Button variant="outline-success" onClick={() => setMarking('settled')}>
                          {t(TARGET_TITLE.settled)}
                        </Button>
                      )}
                      {canMark(invoice.status, 'invalid') && (
                        <Button variant="outline-danger" onClick={() => setMarking('invalid')}>
                          {t(TARGET_TITLE.invalid)}
                        </Button>
                      )}
                      {canRefund(invoice) && (
                        <Button variant="outline-primary" onClick={() => setRefunding(true)}>
                          {t('invDetail.refund')}
                        </Button>
                      )}
                    </div>
                  )}
                </Card.Body>
              </Card>

              {testMode && (
                <SimulatePayments appId={appId} invoiceId={invoice.id} status={invoice.status} />
              )}
              <Section title={t('invDetail.options')}>
                <SmallTable
                  caption={t('invDetail.options')}
                  rows={invoice.payment_options}
                  rowKey={(o) => o.method}
                  columns={optionColumns(t)}
                />
              </Section>
              <Section title={t('invDetail.payments')}>
                {invoice.payments.length === 0 ? (
                  <p className="text-body-secondary mb-0">{t('invDetail.noPayment')}</p>
                ) : (
                  <SmallTable
                    caption={t('invDetail.payments')}
                    rows={invoice.payments}
                    rowKey={(p) => `${p.tx_hash}:${p.log_index ?? ''}`}
                    columns={paymentColumns(t, invoice.currency, (p) =>
                      canAccept(invoice.status, p) ? () => setAccepting(p) : undefined,
                    )}
                  />
                )}
              </Section>
              {/* The list brings its own card and pages. */}
              <section className="mb-3" aria-labelledby="invoice-refunds">
                <h3 className="h6" id="invoice-refunds">
                  {t('inv.refunds')}
                </h3>
                <RefundsList appId={appId} invoiceId={invoice.id} />
              </section>
              <Section title={t('invDetail.timeline')}>
                <Timeline entries={timeline} />
              </Section>

              <MarkInvoiceModal
                appId={appId}
                invoiceId={invoice.id}
                target={marking}
                onHide={() => setMarking(null)}
              />
              <AcceptPaymentModal
                appId={appId}
                invoiceId={invoice.id}
                payment={accepting}
                onHide={() => setAccepting(null)}
              />
              <RefundModal
                appId={appId}
                invoice={invoice}
                show={refunding}
                onHide={() => setRefunding(false)}
              />
            </>
          );
        }}
      </QueryState>
    </>
  );
}

type Scenario = 'full' | 'partial' | 'over';

const SCENARIO_LABEL: Record<Scenario, MessageKey> = {
  full: 'invSimulate.full',
  partial: 'invSimulate.partial',
  over: 'invSimulate.over',
};

/** What a test invoice can be paid with: what is due, half, more; once paid in full, more. */
const SCENARIOS: Partial<Record<Invoice['status'], readonly Scenario[]>> = {
  new: ['full', 'partial', 'over'],
  processing: ['over'],
};

/**
 * A test invoice's simulated payments (test networks' local chains, no real money): each button
 * sends one transfer, which the watcher finds as it finds any; Confirm now mines the blocks the
 * payments still need. Each answer is its toast; the details poll the invoice as it moves.
 */
function SimulatePayments({
  appId,
  invoiceId,
  status,
}: {
  appId: string;
  invoiceId: string;
  status: Invoice['status'];
}) {
  const t = useT();
  const [simulate, simulating] = useSimulateAppInvoicePaymentMutation();
  const [confirm, confirming] = useConfirmAppInvoicePaymentsMutation();
  const [sent, setSent] = useState<Scenario | null>(null);
  const scenarios = SCENARIOS[status];
  if (!scenarios) return null;
  const busy = simulating.isLoading || confirming.isLoading;
  const run = (scenario: Scenario) => {
    setSent(scenario);
    void simulate({
      id: appId,
      invoiceId,
      simulateInvoicePaymentRequest: { scenario },
    });
  };
  return (
    <Section title={t('invSimulate.title')}>
      <p className="small text-body-secondary">{t('invSimulate.intro')}</p>
      <div className="d-flex flex-wrap gap-2">
        {scenarios.map((scenario) => (
          <BusyButton
            key={scenario}
            variant="outline-primary"
            busy={simulating.isLoading && sent === scenario}
            disabled={busy}
            onClick={() => run(scenario)}
          >
            {t(SCENARIO_LABEL[scenario])}
          </BusyButton>
        ))}
        <BusyButton
          variant="outline-success"
          busy={confirming.isLoading}
          disabled={busy}
          onClick={() => void confirm({ id: appId, invoiceId })}
        >
          {t('invSimulate.confirm')}
        </BusyButton>
      </div>
    </Section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="mb-3">
      <Card.Body>
        <h3 className="h6">{title}</h3>
        {children}
      </Card.Body>
    </Card>
  );
}

function SmallTable<Row>({
  caption,
  rows,
  rowKey,
  columns,
}: {
  caption: string;
  rows: Row[];
  rowKey: (row: Row) => string;
  columns: readonly Column<Row>[];
}) {
  return (
    <div className="table-responsive">
      <Table size="sm" className={`${DATA_TABLE_CLASS} align-middle mb-0`}>
        <caption className="visually-hidden">{caption}</caption>
        <DataTableHead columns={columns} />
        <tbody>
          {rows.map((row) => (
            <DataTableRow key={rowKey(row)} columns={columns} row={row} />
          ))}
        </tbody>
      </Table>
    </div>
  );
}

const optionColumns = (t: Translate): Column<Option>[] => [
  { header: t('testDeposit.method'), className: 'text-nowrap', cell: (o) => o.method },
  {
    header: t('tx.address'),
    className: 'text-break',
    cell: (o) => <code className="small">{o.address}</code>,
  },
  {
    header: t('invDetail.amountDue'),
    numeric: true,
    className: 'text-nowrap',
    cell: (o) => o.amount_due,
  },
  { header: t('invDetail.stillDue'), numeric: true, className: 'text-nowrap', cell: (o) => o.due },
  {
    header: t('invDetail.refunded'),
    numeric: true,
    className: 'text-nowrap',
    cell: (o) => o.refunded,
  },
  {
    header: t('invDetail.rate'),
    cell: (o) => (
      <>
        <span className="text-nowrap">{o.rate}</span>
        <div className="small text-body-secondary text-break">{o.rate_source}</div>
      </>
    ),
  },
];

function PaymentStatus({ payment: p, onAccept }: { payment: Payment; onAccept?: () => void }) {
  const t = useT();
  const status = t(PAYMENT_STATUS[p.status]);
  // One block: on a phone the cell's parts stack under its label rather than squeeze beside it.
  return (
    <div>
      <span className="text-nowrap">{p.late ? t('invPayment.late', { status }) : status}</span>
      {p.flag && (
        <div className="small text-body-secondary">
          {t(p.accepted ? 'invPayment.accepted' : 'invPayment.notCounted', {
            flag: STRAY_FLAG[p.flag],
          })}
        </div>
      )}
      {onAccept && (
        <Button size="sm" variant="outline-primary" className="mt-1" onClick={onAccept}>
          {t('invDetail.accept')}
        </Button>
      )}
    </div>
  );
}

/** The payments' columns; `acceptOf` gives a payment the merchant may accept its Accept action. */
function paymentColumns(
  t: Translate,
  currency: string,
  acceptOf: (p: Payment) => (() => void) | undefined,
): Column<Payment>[] {
  return [
    {
      header: t('wallet.txHash'),
      className: 'text-nowrap',
      cell: (p) => <TxHash chainId={p.chain_id} hash={p.tx_hash} />,
    },
    { header: t('testDeposit.method'), className: 'text-nowrap', cell: (p) => p.method },
    {
      header: t('dashboard.amount'),
      numeric: true,
      className: 'text-nowrap',
      cell: (p) => p.amount,
    },
    // May wrap between the figure and the currency: with a flagged payment's status beside it,
    // the table is tight at 1280 px.
    { header: t('invDetail.value'), numeric: true, cell: (p) => `${p.value} ${currency}` },
    { header: t('invDetail.confirmations'), numeric: true, cell: (p) => p.confirmations },
    {
      header: t('wallet.status'),
      cell: (p) => <PaymentStatus payment={p} onAccept={acceptOf(p)} />,
    },
    {
      header: t('dashboard.time'),
      className: 'time-cell',
      cell: (p) => <DateTime value={p.created_at} />,
    },
  ];
}

function Timeline({ entries }: { entries: InvoiceTimelineEntry[] }) {
  const t = useT();
  return (
    <ol className="list-unstyled mb-0 invoice-timeline" aria-label={t('invDetail.timelineLabel')}>
      {entries.map((entry) => (
        <li key={entry.event_id} className="mb-2">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <strong>{t(TIMELINE_EVENT[entry.event])}</strong>
            {entry.detail !== null && <span>{entry.detail}</span>}
            {entry.exceptions.length > 0 && (
              <span className="small text-body-secondary">
                {t('invTimeline.flags', {
                  flags: entry.exceptions.map((flag) => t(TIMELINE_EXCEPTION[flag])).join(', '),
                })}
              </span>
            )}
            <span className="small text-body-secondary">
              <DateTime value={entry.at} />
            </span>
          </div>
          <div className="small">
            {entry.deliveries.length === 0
              ? t('invTimeline.noDelivery')
              : entry.deliveries.map((d) => (
                  <span key={d.id} className="me-3">
                    {d.http_code === null
                      ? t('invTimeline.delivery', {
                          status: t(DELIVERY_STATUS[d.status]),
                          count: d.attempts,
                        })
                      : t('invTimeline.deliveryHttp', {
                          status: t(DELIVERY_STATUS[d.status]),
                          code: d.http_code,
                          count: d.attempts,
                        })}
                  </span>
                ))}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Accepts a payment the invoice did not offer toward it, once the merchant confirms. */
function AcceptPaymentModal({
  appId,
  invoiceId,
  payment,
  onHide,
}: {
  appId: string;
  invoiceId: string;
  payment: Payment | null;
  onHide: () => void;
}) {
  const t = useT();
  const [accept, { isLoading }] = useAcceptAppInvoicePaymentMutation();
  const confirm = async () => {
    if (!payment) return;
    // A refusal is told by its toast; the modal stays for another try or Close.
    const result = await accept({ id: appId, invoiceId, paymentId: payment.id });
    if (!('error' in result)) onHide();
  };
  return (
    <TitledModal show={payment !== null} onHide={onHide} title={t('invAccept.title')}>
      {payment && (
        <>
          <Modal.Body>
            <p>
              {t(
                payment.flag === 'wrong_network'
                  ? 'invAccept.wrongNetwork'
                  : 'invAccept.wrongAsset',
                { payment: `${payment.amount} ${payment.method}` },
              )}
            </p>
            <p className="mb-0">
              {t(
                payment.flag === 'wrong_network'
                  ? 'invAccept.countsSameRate'
                  : 'invAccept.countsRateNow',
                { method: payment.method },
              )}
            </p>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={onHide}>
              {t('common.close')}
            </Button>
            <BusyButton busy={isLoading} variant="primary" onClick={() => void confirm()}>
              {t('invDetail.accept')}
            </BusyButton>
          </Modal.Footer>
        </>
      )}
    </TitledModal>
  );
}

function MarkInvoiceModal({
  appId,
  invoiceId,
  target,
  onHide,
}: {
  appId: string;
  invoiceId: string;
  target: Target | null;
  onHide: () => void;
}) {
  const t = useT();
  return (
    <TitledModal
      show={target !== null}
      onHide={onHide}
      title={target ? t(TARGET_TITLE[target]) : ''}
    >
      {target && <MarkForm appId={appId} invoiceId={invoiceId} target={target} onDone={onHide} />}
    </TitledModal>
  );
}

function MarkForm({
  appId,
  invoiceId,
  target,
  onDone,
}: {
  appId: string;
  invoiceId: string;
  target: Target;
  onDone: () => void;
}) {
  const t = useT();
  const [mark, { isLoading }] = useMarkAppInvoiceMutation();
  const form = useForm({ reason: '' }, { maxLength: { reason: 500 } });
  const submit = validSubmit(
    form,
    (values) => (values.reason.trim() === '' ? { reason: INVOICE_FORM_MSG.reasonRequired } : {}),
    async (values) => {
      await mark({
        id: appId,
        invoiceId,
        markInvoiceRequest: { status: target, reason: values.reason.trim() },
      }).unwrap();
      onDone();
    },
  );
  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Modal.Body>
        <p>{t(target === 'settled' ? 'invMark.settledBody' : 'invMark.invalidBody')}</p>
        <Form.Group controlId="invoice-mark-reason">
          <Form.Label>{t('invDetail.reasonLabel')}</Form.Label>
          <Form.Control {...form.bind('reason')} as="textarea" rows={3} />
          <Form.Control.Feedback type="invalid">{form.errors.reason}</Form.Control.Feedback>
        </Form.Group>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onDone}>
          {t('common.close')}
        </Button>
        <BusyButton
          type="submit"
          busy={isLoading}
          variant={target === 'settled' ? 'success' : 'danger'}
        >
          {t('security.confirm')}
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}
