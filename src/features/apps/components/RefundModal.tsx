import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import type { Invoice } from '../../../api/invoices';
import {
  useCreateAppRefundMutation,
  usePreviewAppRefundMutation,
  type Refund,
  type RefundPreview,
} from '../../../api/refunds';
import { BusyButton } from '../../../components/BusyButton';
import { DateTime } from '../../../components/DateTime';
import { useForm } from '../../../components/form/useForm';
import { validSubmit } from '../../../components/form/validSubmit';
import { TitledModal } from '../../../components/TitledModal';
import { REASON_MAX } from '../../../shared/refunds';
import {
  initialRefund,
  newRefundErrors,
  paidMethods,
  refundRequest,
  type RefundValues,
} from '../refundRules';
import { CopyClaimLinkButton, RefundBadge } from './RefundParts';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

const decimal = (raw: string) => raw.replace(/[^0-9.]/g, '');

interface Props {
  appId: string;
  invoice: Invoice;
  show: boolean;
  onHide: () => void;
}

/**
 * Refund: the form, the token amount it would pay (the server's preview) to confirm, then the
 * claim link to send the shopper, or the refund on its way to the merchant's address.
 */
export function RefundModal({ appId, invoice, show, onHide }: Props) {
  const t = useT();
  return (
    <TitledModal show={show} onHide={onHide} title={t('invDetail.refund')}>
      {show && <RefundFlow appId={appId} invoice={invoice} onDone={onHide} />}
    </TitledModal>
  );
}

function RefundFlow({
  appId,
  invoice,
  onDone,
}: {
  appId: string;
  invoice: Invoice;
  onDone: () => void;
}) {
  const t = useT();
  const form = useForm<RefundValues>(initialRefund(invoice), {
    filters: { amount: decimal },
    maxLength: { amount: 30, address: 128, reason: REASON_MAX },
  });
  const [preview, previewState] = usePreviewAppRefundMutation();
  const [create, createState] = useCreateAppRefundMutation();
  const [shown, setShown] = useState<RefundPreview | null>(null);
  const [made, setMade] = useState<Refund | null>(null);
  const target = { id: appId, invoiceId: invoice.id };

  const submit = validSubmit(
    form,
    (values) => newRefundErrors(values, invoice.currency),
    async (values) => {
      const answer = await preview({
        ...target,
        createRefundRequest: refundRequest(values, invoice),
      }).unwrap();
      setShown(answer.data);
    },
  );

  const confirm = async () => {
    try {
      const answer = await create({
        ...target,
        createRefundRequest: refundRequest(form.values, invoice),
      }).unwrap();
      setMade(answer.data);
    } catch (error) {
      // What changed since the preview (another refund took the cap) is said at its field.
      setShown(null);
      form.applyServerErrors(error);
    }
  };

  if (made) return <RefundMade refund={made} buyerEmail={invoice.buyer_email} onDone={onDone} />;
  if (shown) {
    return (
      <RefundConfirm
        preview={shown}
        values={form.values}
        currency={invoice.currency}
        busy={createState.isLoading}
        onBack={() => setShown(null)}
        onConfirm={() => void confirm()}
      />
    );
  }

  const { values, errors } = form;
  const methods = paidMethods(invoice);
  const custom = values.amount_kind === 'custom';
  const kind = (amountKind: RefundValues['amount_kind'], label: string) => (
    <Form.Check
      type="radio"
      id={`refund-kind-${amountKind}`}
      name="amount_kind"
      label={label}
      checked={values.amount_kind === amountKind}
      isInvalid={Boolean(errors.amount_kind)}
      onChange={() => form.setField('amount_kind', amountKind)}
    />
  );
  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Modal.Body>
        <Row className="g-3">
          {methods.length > 1 && values.amount_kind !== 'overpaid' && (
            <Col xs={12}>
              <Form.Group controlId="refund-method">
                <Form.Label>{t('testDeposit.method')}</Form.Label>
                <Form.Select {...form.bind('method')}>
                  {methods.map((method) => (
                    <option key={method} value={method}>
                      {method}
                    </option>
                  ))}
                </Form.Select>
                <Form.Control.Feedback type="invalid">{errors.method}</Form.Control.Feedback>
              </Form.Group>
            </Col>
          )}
          {methods.length > 1 && values.amount_kind === 'overpaid' && invoice.overpaid && (
            <Col xs={12}>
              <p className="small mb-0">
                {t('refundForm.overpaidIn', { method: invoice.overpaid.method })}
              </p>
            </Col>
          )}
          <Col xs={12}>
            <fieldset>
              <legend className="form-label fs-6 mb-1">{t('dashboard.amount')}</legend>
              {kind('full', t('refundForm.full'))}
              {invoice.overpaid &&
                kind(
                  'overpaid',
                  t('refundForm.overpaid', {
                    amount: `${invoice.overpaid.amount} ${invoice.overpaid.method}`,
                  }),
                )}
              {kind('custom', t('refundForm.custom'))}
              {errors.amount_kind && (
                <Form.Control.Feedback type="invalid" className="d-block">
                  {errors.amount_kind}
                </Form.Control.Feedback>
              )}
              {methods.length === 1 && errors.method && (
                <Form.Control.Feedback type="invalid" className="d-block">
                  {errors.method}
                </Form.Control.Feedback>
              )}
            </fieldset>
          </Col>
          {custom && (
            <>
              <Col xs={7}>
                <Form.Group controlId="refund-amount">
                  <Form.Label>{t('refundForm.amount')}</Form.Label>
                  <Form.Control {...form.bind('amount')} inputMode="decimal" placeholder="10.00" />
                  <Form.Control.Feedback type="invalid">{errors.amount}</Form.Control.Feedback>
                </Form.Group>
              </Col>
              <Col xs={5}>
                <Form.Group controlId="refund-currency">
                  <Form.Label>{t('refundForm.in')}</Form.Label>
                  <Form.Select {...form.bind('currency')}>
                    <option value="invoice">{invoice.currency}</option>
                    <option value="token">
                      {t('refundForm.token', { method: values.method })}
                    </option>
                  </Form.Select>
                  <Form.Control.Feedback type="invalid">{errors.currency}</Form.Control.Feedback>
                </Form.Group>
              </Col>
              {values.currency === 'invoice' && (
                <Col xs={12}>
                  <fieldset>
                    <legend className="form-label fs-6 mb-1">{t('invDetail.rate')}</legend>
                    <Form.Check
                      inline
                      type="radio"
                      id="refund-rate-original"
                      name="rate"
                      label={t('refundForm.rateThen')}
                      checked={values.rate === 'original'}
                      onChange={() => form.setField('rate', 'original')}
                    />
                    <Form.Check
                      inline
                      type="radio"
                      id="refund-rate-current"
                      name="rate"
                      label={t('refundForm.rateCurrent')}
                      checked={values.rate === 'current'}
                      onChange={() => form.setField('rate', 'current')}
                    />
                    {errors.rate && (
                      <Form.Control.Feedback type="invalid" className="d-block">
                        {errors.rate}
                      </Form.Control.Feedback>
                    )}
                  </fieldset>
                </Col>
              )}
            </>
          )}
          <Col xs={12}>
            <Form.Group controlId="refund-address">
              <Form.Label>{t('refundForm.address')}</Form.Label>
              <Form.Control
                {...form.bind('address')}
                className="font-monospace"
                aria-describedby="refund-address-help"
              />
              <Form.Control.Feedback type="invalid">{errors.address}</Form.Control.Feedback>
              <Form.Text id="refund-address-help" muted>
                {t('refundForm.addressHelp')}
              </Form.Text>
            </Form.Group>
          </Col>
          <Col xs={12}>
            <Form.Group controlId="refund-reason">
              <Form.Label>{t('invDetail.reasonLabel')}</Form.Label>
              <Form.Control {...form.bind('reason')} as="textarea" rows={2} />
              <Form.Control.Feedback type="invalid">{errors.reason}</Form.Control.Feedback>
            </Form.Group>
          </Col>
        </Row>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <BusyButton type="submit" busy={previewState.isLoading}>
          {t('refundForm.preview')}
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}

function RefundConfirm({
  preview,
  values,
  currency,
  busy,
  onBack,
  onConfirm,
}: {
  preview: RefundPreview;
  values: RefundValues;
  currency: string;
  busy: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const t = useT();
  const address = values.address.trim();
  return (
    <>
      <Modal.Body>
        <p>
          {withNodes(
            t,
            'refundConfirm.question',
            { method: preview.method },
            { amount: <strong>{`${preview.amount} ${preview.asset}`}</strong> },
          )}
        </p>
        <dl className="row mb-0 details-list">
          {preview.rate !== null && (
            <>
              <dt className="col-sm-4">{t('invDetail.rate')}</dt>
              <dd className="col-sm-8">
                {t(
                  preview.rate_kind === 'current'
                    ? 'refundConfirm.rateCurrent'
                    : 'refundConfirm.rateThen',
                  {
                    amount: `${values.amount} ${currency}`,
                    rate: `${preview.rate} ${currency}`,
                    asset: preview.asset,
                  },
                )}
              </dd>
            </>
          )}
          <dt className="col-sm-4">{t('refundConfirm.refundable')}</dt>
          <dd className="col-sm-8">
            {t('refundConfirm.left', {
              amount: `${preview.refundable} ${preview.asset}`,
              method: preview.method,
            })}
          </dd>
          <dt className="col-sm-4">{t('refundConfirm.to')}</dt>
          <dd className="col-sm-8 text-break">
            {address === '' ? t('refundConfirm.claimLink') : <code>{address}</code>}
          </dd>
          <dt className="col-sm-4">{t('invDetail.reasonLabel')}</dt>
          <dd className="col-sm-8 text-break">{values.reason.trim()}</dd>
        </dl>
        <p className="small text-body-secondary mt-3 mb-0">
          {t('refundConfirm.paidFrom', { method: preview.method })}
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onBack}>
          {t('refundConfirm.back')}
        </Button>
        <BusyButton variant="danger" busy={busy} onClick={onConfirm}>
          {t('refundConfirm.confirm')}
        </BusyButton>
      </Modal.Footer>
    </>
  );
}

function RefundMade({
  refund,
  buyerEmail,
  onDone,
}: {
  refund: Refund;
  buyerEmail: string | null;
  onDone: () => void;
}) {
  const t = useT();
  return (
    <>
      <Modal.Body>
        <p>
          {withNodes(
            t,
            'refundMade.created',
            {},
            {
              amount: <strong>{`${refund.amount} ${refund.method}`}</strong>,
              status: <RefundBadge refund={refund} />,
            },
          )}
        </p>
        {refund.claim_url ? (
          <>
            <Form.Group controlId="refund-claim-url">
              <Form.Label>{t('claim.link')}</Form.Label>
              <div className="d-flex gap-2">
                <Form.Control value={refund.claim_url} readOnly />
                <CopyClaimLinkButton url={refund.claim_url} className="flex-shrink-0" />
              </div>
            </Form.Group>
            <p className="small mt-2 mb-0">
              {t('refundMade.send')}
              {buyerEmail && ` ${t('refundMade.emailed', { email: buyerEmail })}`}
              {refund.claim_expires_at && (
                <>
                  {' '}
                  {withNodes(
                    t,
                    'refundMade.until',
                    {},
                    { date: <DateTime value={refund.claim_expires_at} /> },
                  )}
                </>
              )}
            </p>
          </>
        ) : (
          <p className="mb-0">
            {withNodes(
              t,
              'refundMade.paidTo',
              {},
              { address: <code className="text-break">{refund.address}</code> },
            )}
            {refund.waiting_message && (
              <span className="d-block small mt-2">{refund.waiting_message}</span>
            )}
          </p>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={onDone}>{t('invCreate.done')}</Button>
      </Modal.Footer>
    </>
  );
}
