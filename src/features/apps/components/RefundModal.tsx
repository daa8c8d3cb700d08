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
  return (
    <TitledModal show={show} onHide={onHide} title="Refund">
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
                <Form.Label>Method</Form.Label>
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
                The overpaid part is refunded in {invoice.overpaid.method}, the method that went
                over.
              </p>
            </Col>
          )}
          <Col xs={12}>
            <fieldset>
              <legend className="form-label fs-6 mb-1">Amount</legend>
              {kind('full', 'Everything paid, less what was refunded')}
              {invoice.overpaid &&
                kind(
                  'overpaid',
                  `The overpaid part (${invoice.overpaid.amount} ${invoice.overpaid.method})`,
                )}
              {kind('custom', 'A custom amount')}
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
                  <Form.Label>Refund amount</Form.Label>
                  <Form.Control {...form.bind('amount')} inputMode="decimal" placeholder="10.00" />
                  <Form.Control.Feedback type="invalid">{errors.amount}</Form.Control.Feedback>
                </Form.Group>
              </Col>
              <Col xs={5}>
                <Form.Group controlId="refund-currency">
                  <Form.Label>In</Form.Label>
                  <Form.Select {...form.bind('currency')}>
                    <option value="invoice">{invoice.currency}</option>
                    <option value="token">{values.method} (token)</option>
                  </Form.Select>
                  <Form.Control.Feedback type="invalid">{errors.currency}</Form.Control.Feedback>
                </Form.Group>
              </Col>
              {values.currency === 'invoice' && (
                <Col xs={12}>
                  <fieldset>
                    <legend className="form-label fs-6 mb-1">Rate</legend>
                    <Form.Check
                      inline
                      type="radio"
                      id="refund-rate-original"
                      name="rate"
                      label="Rate then (the invoice's)"
                      checked={values.rate === 'original'}
                      onChange={() => form.setField('rate', 'original')}
                    />
                    <Form.Check
                      inline
                      type="radio"
                      id="refund-rate-current"
                      name="rate"
                      label="Current rate"
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
              <Form.Label>Shopper's address (optional)</Form.Label>
              <Form.Control
                {...form.bind('address')}
                className="font-monospace"
                aria-describedby="refund-address-help"
              />
              <Form.Control.Feedback type="invalid">{errors.address}</Form.Control.Feedback>
              <Form.Text id="refund-address-help" muted>
                Leave it empty to get a claim link: the shopper enters an address of their own.
                Never the address the payment came from, often an exchange that would not credit it.
              </Form.Text>
            </Form.Group>
          </Col>
          <Col xs={12}>
            <Form.Group controlId="refund-reason">
              <Form.Label>Reason</Form.Label>
              <Form.Control {...form.bind('reason')} as="textarea" rows={2} />
              <Form.Control.Feedback type="invalid">{errors.reason}</Form.Control.Feedback>
            </Form.Group>
          </Col>
        </Row>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <BusyButton type="submit" busy={previewState.isLoading}>
          Preview refund
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
  const address = values.address.trim();
  return (
    <>
      <Modal.Body>
        <p>
          Refund <strong>{`${preview.amount} ${preview.asset}`}</strong> ({preview.method})?
        </p>
        <dl className="row mb-0 details-list">
          {preview.rate !== null && (
            <>
              <dt className="col-sm-4">Rate</dt>
              <dd className="col-sm-8">
                {`${values.amount} ${currency} at ${preview.rate} ${currency} per ${preview.asset}`}{' '}
                ({preview.rate_kind === 'current' ? 'current rate' : 'rate then'})
              </dd>
            </>
          )}
          <dt className="col-sm-4">Refundable</dt>
          <dd className="col-sm-8">{`${preview.refundable} ${preview.asset} left in ${preview.method}`}</dd>
          <dt className="col-sm-4">To</dt>
          <dd className="col-sm-8 text-break">
            {address === '' ? 'A claim link for the shopper' : <code>{address}</code>}
          </dd>
          <dt className="col-sm-4">Reason</dt>
          <dd className="col-sm-8 text-break">{values.reason.trim()}</dd>
        </dl>
        <p className="small text-body-secondary mt-3 mb-0">
          Paid from the app's operational wallet of {preview.method}, with the network fee.
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <BusyButton variant="danger" busy={busy} onClick={onConfirm}>
          Confirm refund
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
  return (
    <>
      <Modal.Body>
        <p>
          Refund of <strong>{`${refund.amount} ${refund.method}`}</strong> is created:{' '}
          <RefundBadge refund={refund} />
        </p>
        {refund.claim_url ? (
          <>
            <Form.Group controlId="refund-claim-url">
              <Form.Label>Claim link</Form.Label>
              <div className="d-flex gap-2">
                <Form.Control value={refund.claim_url} readOnly />
                <CopyClaimLinkButton url={refund.claim_url} className="flex-shrink-0" />
              </div>
            </Form.Group>
            <p className="small mt-2 mb-0">
              Send it to the shopper: they enter their address on it.
              {buyerEmail && ` It was e-mailed to ${buyerEmail}.`}
              {refund.claim_expires_at && (
                <>
                  {' '}
                  It works until <DateTime value={refund.claim_expires_at} />.
                </>
              )}
            </p>
          </>
        ) : (
          <p className="mb-0">
            It is paid to <code className="text-break">{refund.address}</code>.
            {refund.waiting_message && (
              <span className="d-block small mt-2">{refund.waiting_message}</span>
            )}
          </p>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={onDone}>Done</Button>
      </Modal.Footer>
    </>
  );
}
