import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import type { ApiError } from '../../../api/errors';
import { useCreateAppInvoiceMutation, type Invoice } from '../../../api/invoices';
import { BusyButton } from '../../../components/BusyButton';
import { CopyButton } from '../../../components/CopyButton';
import { useForm } from '../../../components/form/useForm';
import { validSubmit } from '../../../components/form/validSubmit';
import { TitledModal } from '../../../components/TitledModal';
import {
  CURRENCIES,
  EXPIRY_MINUTES,
  newInvoiceErrors,
  type NewInvoiceValues,
} from '../invoiceRules';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

const EMPTY: NewInvoiceValues = {
  amount: '',
  currency: 'USD',
  description: '',
  order_id: '',
  expires_in_minutes: String(EXPIRY_MINUTES.default),
};

interface Props {
  appId: string;
  show: boolean;
  onHide: () => void;
  /** Opens the new invoice's details. */
  onView: (id: string) => void;
}

/** Create Invoice: the form, then the checkout link to hand the shopper, with a copy button. */
export function CreateInvoiceModal({ appId, show, onHide, onView }: Props) {
  const t = useT();
  const [created, setCreated] = useState<Invoice | null>(null);
  const close = () => {
    setCreated(null);
    onHide();
  };
  return (
    <TitledModal show={show} onHide={close} title={t('inv.create')}>
      {created ? (
        <CheckoutLink
          invoice={created}
          onView={() => {
            close();
            onView(created.id);
          }}
          onClose={close}
        />
      ) : (
        <NewInvoiceForm appId={appId} onCreated={setCreated} onCancel={close} />
      )}
    </TitledModal>
  );
}

function NewInvoiceForm({
  appId,
  onCreated,
  onCancel,
}: {
  appId: string;
  onCreated: (invoice: Invoice) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const [create, { isLoading }] = useCreateAppInvoiceMutation();
  const form = useForm<NewInvoiceValues>(EMPTY, {
    filters: {
      amount: (raw) => raw.replace(/[^0-9.]/g, ''),
      expires_in_minutes: (raw) => raw.replace(/[^0-9]/g, ''),
    },
    maxLength: { amount: 30, description: 500, order_id: 128, expires_in_minutes: 4 },
  });
  const { errors } = form;

  const submit = validSubmit(form, newInvoiceErrors, async (typed) => {
    try {
      const answer = await create({
        id: appId,
        createInvoiceRequest: {
          amount: typed.amount,
          currency: typed.currency,
          description: typed.description.trim(),
          order_id: typed.order_id.trim(),
          expires_in: Number(typed.expires_in_minutes) * 60,
        },
      }).unwrap();
      onCreated(answer.data);
    } catch (error) {
      // The server names the expiry in seconds; the form asks for minutes.
      const expiry = (error as Partial<ApiError> | undefined)?.fieldErrors?.expires_in?.[0];
      if (expiry) form.setErrors((current) => ({ ...current, expires_in_minutes: expiry }));
      throw error;
    }
  });

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Modal.Body>
        <Row className="g-3">
          <Col xs={7}>
            <Form.Group controlId="invoice-amount">
              <Form.Label>{t('dashboard.amount')}</Form.Label>
              <Form.Control {...form.bind('amount')} inputMode="decimal" placeholder="49.90" />
              <Form.Control.Feedback type="invalid">{errors.amount}</Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col xs={5}>
            <Form.Group controlId="invoice-currency">
              <Form.Label>{t('settings.currency')}</Form.Label>
              <Form.Select {...form.bind('currency')}>
                {CURRENCIES.map(({ code }) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </Form.Select>
              <Form.Control.Feedback type="invalid">{errors.currency}</Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col xs={12}>
            <Form.Group controlId="invoice-description">
              <Form.Label>{t('invDetail.description')}</Form.Label>
              <Form.Control
                {...form.bind('description')}
                placeholder={t('invCreate.descriptionPlaceholder')}
              />
              <Form.Control.Feedback type="invalid">{errors.description}</Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col sm={7}>
            <Form.Group controlId="invoice-order-id">
              <Form.Label>{t('inv.orderId')}</Form.Label>
              <Form.Control
                {...form.bind('order_id')}
                placeholder={t('invCreate.orderPlaceholder')}
              />
              <Form.Control.Feedback type="invalid">{errors.order_id}</Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col sm={5}>
            <Form.Group controlId="invoice-expiry">
              <Form.Label>{t('invCreate.expiry')}</Form.Label>
              <Form.Control
                {...form.bind('expires_in_minutes')}
                inputMode="numeric"
                aria-describedby="invoice-expiry-help"
              />
              <Form.Control.Feedback type="invalid">
                {errors.expires_in_minutes}
              </Form.Control.Feedback>
              <Form.Text id="invoice-expiry-help" muted>
                {t('invCreate.expiryHelp', { min: EXPIRY_MINUTES.min, max: EXPIRY_MINUTES.max })}
              </Form.Text>
            </Form.Group>
          </Col>
        </Row>
        <p className="small text-body-secondary mt-3 mb-0">{t('invCreate.payable')}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <BusyButton type="submit" busy={isLoading}>
          {t('inv.create')}
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}

function CheckoutLink({
  invoice,
  onView,
  onClose,
}: {
  invoice: Invoice;
  onView: () => void;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <>
      <Modal.Body>
        <p>
          {withNodes(
            t,
            'invCreate.created',
            { amount: `${invoice.amount} ${invoice.currency}` },
            { id: <code>{invoice.id}</code> },
          )}
        </p>
        <Form.Group controlId="invoice-checkout-url">
          <Form.Label>{t('invDetail.checkout')}</Form.Label>
          <div className="d-flex gap-2">
            <Form.Control value={invoice.checkout_url} readOnly />
            <CopyButton
              value={invoice.checkout_url}
              label={t('invDetail.copyCheckout')}
              successText={t('invDetail.checkoutCopied')}
            >
              {t('copy.label')}
            </CopyButton>
          </div>
        </Form.Group>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-primary" onClick={onView}>
          {t('invCreate.view')}
        </Button>
        <Button onClick={onClose}>{t('invCreate.done')}</Button>
      </Modal.Footer>
    </>
  );
}
