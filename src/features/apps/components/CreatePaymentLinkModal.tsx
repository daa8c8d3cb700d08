import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import type { AppDetails } from '../../../api/apps';
import { useCreateAppPaymentLinkMutation, type PaymentLink } from '../../../api/paymentLinks';
import { BusyButton } from '../../../components/BusyButton';
import { useForm } from '../../../components/form/useForm';
import { validSubmit } from '../../../components/form/validSubmit';
import { TitledModal } from '../../../components/TitledModal';
import { PAYMENT_LINK_LIMITS } from '../../../shared/paymentLinks';
import { CURRENCIES } from '../invoiceRules';
import { linkAmount, linkMethods, newLinkErrors, type NewLinkValues } from '../paymentLinkRules';
import { CopyLinkButton } from './PaymentLinkParts';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

const EMPTY: NewLinkValues = {
  title: '',
  description: '',
  pricing: 'fixed',
  amount: '',
  amount_min: '',
  amount_max: '',
  currency: 'USD',
  methods: '',
  expires_at: '',
  max_uses: '',
  redirect_url: '',
};

const decimal = (raw: string) => raw.replace(/[^0-9.]/g, '');

interface Props {
  details: AppDetails;
  show: boolean;
  onHide: () => void;
  /** Opens the new link's details. */
  onView: (id: string) => void;
}

/** Create payment link: the form, then the link's URL to share, with copy and Open. */
export function CreatePaymentLinkModal({ details, show, onHide, onView }: Props) {
  const t = useT();
  const [created, setCreated] = useState<PaymentLink | null>(null);
  const close = () => {
    setCreated(null);
    onHide();
  };
  return (
    <TitledModal show={show} onHide={close} title={t('link.create')}>
      {created ? (
        <LinkCreated
          link={created}
          onView={() => {
            close();
            onView(created.id);
          }}
          onClose={close}
        />
      ) : (
        <NewLinkForm details={details} onCreated={setCreated} onCancel={close} />
      )}
    </TitledModal>
  );
}

function NewLinkForm({
  details,
  onCreated,
  onCancel,
}: {
  details: AppDetails;
  onCreated: (link: PaymentLink) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const appId = details.app_data.id;
  const methods = linkMethods(details);
  const [create, { isLoading }] = useCreateAppPaymentLinkMutation();
  const form = useForm<NewLinkValues>(EMPTY, {
    filters: {
      amount: decimal,
      amount_min: decimal,
      amount_max: decimal,
      max_uses: (raw) => raw.replace(/[^0-9]/g, ''),
    },
    maxLength: {
      title: PAYMENT_LINK_LIMITS.title,
      description: PAYMENT_LINK_LIMITS.description,
      amount: 30,
      amount_min: 30,
      amount_max: 30,
      max_uses: 7,
      redirect_url: 2048,
    },
  });
  const { errors, values } = form;
  const ticked = values.methods === '' ? [] : values.methods.split(',');
  const tick = (id: string, on: boolean) =>
    form.setField(
      'methods',
      methods
        .map((m) => m.id)
        .filter((m) => (m === id ? on : ticked.includes(m)))
        .join(','),
    );
  const fixed = values.pricing === 'fixed';

  const submit = validSubmit(
    form,
    (typed) => newLinkErrors(typed, new Date()),
    async (typed) => {
      const optional = (text: string) => (text.trim() === '' ? undefined : text.trim());
      const answer = await create({
        id: appId,
        createPaymentLinkRequest: {
          title: typed.title.trim(),
          description: typed.description.trim(),
          currency: typed.currency,
          ...(fixed
            ? { amount: typed.amount }
            : { amount_min: optional(typed.amount_min), amount_max: optional(typed.amount_max) }),
          ...(ticked.length > 0 ? { methods: ticked } : {}),
          ...(typed.expires_at ? { expires_at: new Date(typed.expires_at).toISOString() } : {}),
          ...(typed.max_uses ? { max_uses: Number(typed.max_uses) } : {}),
          redirect_url: optional(typed.redirect_url),
        },
      }).unwrap();
      onCreated(answer.data);
    },
  );

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Modal.Body>
        <Row className="g-3">
          <Col xs={12}>
            <Form.Group controlId="link-title">
              <Form.Label>{t('link.title')}</Form.Label>
              <Form.Control
                {...form.bind('title')}
                placeholder={t('linkCreate.titlePlaceholder')}
              />
              <Form.Control.Feedback type="invalid">{errors.title}</Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col xs={12}>
            <Form.Group controlId="link-description">
              <Form.Label>{t('invDetail.description')}</Form.Label>
              <Form.Control {...form.bind('description')} as="textarea" rows={2} />
              <Form.Control.Feedback type="invalid">{errors.description}</Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col xs={12}>
            <fieldset>
              <legend className="form-label fs-6 mb-1">{t('dashboard.amount')}</legend>
              <Form.Check
                inline
                type="radio"
                id="link-pricing-fixed"
                name="pricing"
                label={t('linkCreate.fixed')}
                checked={fixed}
                onChange={() => form.setField('pricing', 'fixed')}
              />
              <Form.Check
                inline
                type="radio"
                id="link-pricing-chosen"
                name="pricing"
                label={t('linkCreate.chosen')}
                checked={!fixed}
                onChange={() => form.setField('pricing', 'chosen')}
              />
            </fieldset>
          </Col>
          {fixed ? (
            <Col xs={7}>
              <Form.Group controlId="link-amount">
                <Form.Label>{t('history.price')}</Form.Label>
                <Form.Control {...form.bind('amount')} inputMode="decimal" placeholder="49.90" />
                <Form.Control.Feedback type="invalid">{errors.amount}</Form.Control.Feedback>
              </Form.Group>
            </Col>
          ) : (
            <>
              <Col xs={6}>
                <Form.Group controlId="link-amount-min">
                  <Form.Label>{t('linkCreate.min')}</Form.Label>
                  <Form.Control
                    {...form.bind('amount_min')}
                    inputMode="decimal"
                    placeholder="5"
                    aria-describedby="link-range-help"
                  />
                  <Form.Control.Feedback type="invalid">{errors.amount_min}</Form.Control.Feedback>
                </Form.Group>
              </Col>
              <Col xs={6}>
                <Form.Group controlId="link-amount-max">
                  <Form.Label>{t('linkCreate.max')}</Form.Label>
                  <Form.Control
                    {...form.bind('amount_max')}
                    inputMode="decimal"
                    placeholder="500"
                    aria-describedby="link-range-help"
                  />
                  <Form.Control.Feedback type="invalid">{errors.amount_max}</Form.Control.Feedback>
                </Form.Group>
              </Col>
            </>
          )}
          {!fixed && (
            <Col xs={12} className="mt-1">
              <Form.Text id="link-range-help" muted>
                {t('linkCreate.rangeHelp')}
              </Form.Text>
            </Col>
          )}
          <Col xs={fixed ? 5 : 12} sm={fixed ? 5 : 6}>
            <Form.Group controlId="link-currency">
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
            <fieldset aria-describedby="link-methods-help">
              <legend className="form-label fs-6 mb-1">{t('link.methods')}</legend>
              {methods.map((method) => (
                <Form.Check
                  key={method.id}
                  type="checkbox"
                  id={`link-method-${method.id}`}
                  label={method.label}
                  checked={ticked.includes(method.id)}
                  isInvalid={Boolean(errors.methods)}
                  onChange={(event) => tick(method.id, event.target.checked)}
                />
              ))}
              {errors.methods && (
                <Form.Control.Feedback type="invalid" className="d-block">
                  {errors.methods}
                </Form.Control.Feedback>
              )}
              <Form.Text id="link-methods-help" muted>
                {t(methods.length === 0 ? 'linkCreate.noMethod' : 'linkCreate.noneTicked')}
              </Form.Text>
            </fieldset>
          </Col>
          <Col sm={6}>
            <Form.Group controlId="link-expires">
              <Form.Label>{t('linkCreate.expires')}</Form.Label>
              <Form.Control {...form.bind('expires_at')} type="datetime-local" />
              <Form.Control.Feedback type="invalid">{errors.expires_at}</Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col sm={6}>
            <Form.Group controlId="link-max-uses">
              <Form.Label>{t('linkCreate.maxUses')}</Form.Label>
              <Form.Control
                {...form.bind('max_uses')}
                inputMode="numeric"
                aria-describedby="link-max-uses-help"
              />
              <Form.Control.Feedback type="invalid">{errors.max_uses}</Form.Control.Feedback>
              <Form.Text id="link-max-uses-help" muted>
                {t('linkCreate.maxUsesHelp')}
              </Form.Text>
            </Form.Group>
          </Col>
          <Col xs={12}>
            <Form.Group controlId="link-redirect">
              <Form.Label>{t('linkCreate.redirect')}</Form.Label>
              <Form.Control
                {...form.bind('redirect_url')}
                type="url"
                inputMode="url"
                placeholder="https://shop.example.com/thanks"
              />
              <Form.Control.Feedback type="invalid">{errors.redirect_url}</Form.Control.Feedback>
            </Form.Group>
          </Col>
        </Row>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <BusyButton type="submit" busy={isLoading}>
          {t('link.create')}
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}

function LinkCreated({
  link,
  onView,
  onClose,
}: {
  link: PaymentLink;
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
            'linkCreate.created',
            { amount: linkAmount(link) },
            { title: <strong>{link.title}</strong> },
          )}
        </p>
        <Form.Group controlId="link-url">
          <Form.Label>{t('linkCreate.link')}</Form.Label>
          <div className="d-flex gap-2">
            <Form.Control value={link.url} readOnly />
            <CopyLinkButton url={link.url} className="flex-shrink-0" />
          </div>
        </Form.Group>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-primary" onClick={onView}>
          {t('linkCreate.view')}
        </Button>
        <Button onClick={onClose}>{t('invCreate.done')}</Button>
      </Modal.Footer>
    </>
  );
}
