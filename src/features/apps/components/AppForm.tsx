import type { ReactNode } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useForm, type FieldErrors } from '../../../components/form/useForm';
import { validSubmit } from '../../../components/form/validSubmit';
import { isLooseUrl } from '../appRules';
import { BusyButton } from '../../../components/BusyButton';
import { t as translate, useT } from '../../../i18n/i18n';

export interface AppFormValues extends Record<string, string> {
  app_name: string;
  project_url: string;
  info: string;
  whitelist_ip: string;
  callback_url: string;
}

export const EMPTY_APP_FORM: AppFormValues = {
  app_name: '',
  project_url: '',
  info: '',
  whitelist_ip: '',
  callback_url: '',
};

interface Props {
  initial: AppFormValues;
  submitLabel: string;
  submitting: boolean;
  /** Throws the API error so that its field messages land on the fields. */
  onSubmit: (values: AppFormValues) => Promise<void>;
  /** Extra controls above the button (Merchant Setting's status switch). */
  children?: ReactNode;
  /** Fields of another form under the app's (Merchant Setting's invoice settings). */
  extraFields?: ReactNode;
  /** A note under the IP whitelist (Merchant Setting: until when a change holds withdrawals). */
  whitelistNote?: ReactNode;
}

// The messages are APP_MESSAGES' (shared/apps, which the server says too), in the language in use.

/** Warning under a URL field while the text does not look like a URL; it never blocks submit. */
function urlWarning(value: string): string | undefined {
  return value.trim() !== '' && !isLooseUrl(value) ? translate('apps.invalidUrl') : undefined;
}

/** App Name and Project URL are required; the rest may stay empty. */
function requiredFields(values: AppFormValues): FieldErrors<AppFormValues> {
  const errors: FieldErrors<AppFormValues> = {};
  if (values.app_name.trim() === '') errors.app_name = translate('apps.nameRequired');
  if (values.project_url.trim() === '') errors.project_url = translate('apps.projectUrlRequired');
  return errors;
}

/** The app's fields as Create App and Merchant Setting edit them. */
export function AppForm({
  initial,
  submitLabel,
  submitting,
  onSubmit,
  children,
  whitelistNote,
  extraFields,
}: Props) {
  const t = useT();
  const form = useForm<AppFormValues>(initial, {
    maxLength: {
      app_name: 100,
      project_url: 2048,
      callback_url: 2048,
      info: 1000,
      whitelist_ip: 4000,
    },
  });
  const { values, errors } = form;

  const submit = validSubmit(form, requiredFields, onSubmit);

  /** A URL field: the server's or required message, else a warning that never blocks submit. */
  const urlField = (
    name: 'project_url' | 'callback_url',
    controlId: string,
    label: string,
    placeholder: string,
  ) => {
    const warning = errors[name] ? undefined : urlWarning(values[name]);
    return (
      <Form.Group controlId={controlId}>
        <Form.Label>{label}</Form.Label>
        <Form.Control {...form.bind(name)} type="url" inputMode="url" placeholder={placeholder} />
        <Form.Control.Feedback type="invalid">{errors[name]}</Form.Control.Feedback>
        {warning && <Form.Text className="text-warning-emphasis d-block">{warning}</Form.Text>}
      </Form.Group>
    );
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Row className="g-3">
        <Col md={6}>
          <Form.Group controlId="app-name">
            <Form.Label>{t('apps.name')}</Form.Label>
            <Form.Control {...form.bind('app_name')} placeholder={t('apps.namePlaceholder')} />
            <Form.Control.Feedback type="invalid">{errors.app_name}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={6}>
          {urlField(
            'project_url',
            'app-project-url',
            t('appCard.projectUrl'),
            'https://example.com',
          )}
        </Col>
        <Col xs={12}>
          <Form.Group controlId="app-info">
            <Form.Label>{t('apps.description')}</Form.Label>
            <Form.Control {...form.bind('info')} as="textarea" rows={3} />
            <Form.Control.Feedback type="invalid">{errors.info}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="app-whitelist">
            <Form.Label>{t('apps.whitelist')}</Form.Label>
            <Form.Control
              {...form.bind('whitelist_ip')}
              as="textarea"
              rows={3}
              placeholder="203.0.113.10, 198.51.100.0/24"
              aria-describedby={
                whitelistNote ? 'app-whitelist-help app-whitelist-note' : 'app-whitelist-help'
              }
            />
            <Form.Control.Feedback type="invalid">{errors.whitelist_ip}</Form.Control.Feedback>
            <Form.Text id="app-whitelist-help" muted>
              {t('apps.whitelistHelp')}
            </Form.Text>
            {whitelistNote && (
              <Form.Text id="app-whitelist-note" className="d-block text-warning-emphasis">
                {whitelistNote}
              </Form.Text>
            )}
          </Form.Group>
        </Col>
        <Col md={6}>
          {urlField(
            'callback_url',
            'app-callback-url',
            t('apps.webhookUrl'),
            'https://example.com/webhook',
          )}
        </Col>
      </Row>
      {extraFields}
      {children}
      <div className="mt-4">
        <BusyButton type="submit" busy={submitting}>
          {submitLabel}
        </BusyButton>
      </div>
    </Form>
  );
}
