import type { FormEvent, ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { useForm } from '../../../components/form/useForm';
import { isLooseUrl, MSG } from '../appRules';

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
}

/** Warning under a URL field while the text does not look like a URL; it never blocks submit. */
function urlWarning(value: string): string | undefined {
  return value.trim() !== '' && !isLooseUrl(value) ? MSG.invalidUrl : undefined;
}

/** The app's fields as Create App and Merchant Setting edit them. */
export function AppForm({ initial, submitLabel, submitting, onSubmit, children }: Props) {
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (values.app_name.trim() === '') next.app_name = MSG.appNameRequired;
    if (values.project_url.trim() === '') next.project_url = MSG.projectUrlRequired;
    form.setErrors(next);
    if (Object.keys(next).length > 0) return;
    try {
      await onSubmit(values);
    } catch (error) {
      form.applyServerErrors(error);
    }
  };

  const projectWarning = errors.project_url ? undefined : urlWarning(values.project_url);
  const callbackWarning = errors.callback_url ? undefined : urlWarning(values.callback_url);

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Row className="g-3">
        <Col md={6}>
          <Form.Group controlId="app-name">
            <Form.Label>App Name</Form.Label>
            <Form.Control {...form.bind('app_name')} placeholder="My Store" />
            <Form.Control.Feedback type="invalid">{errors.app_name}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="app-project-url">
            <Form.Label>Project URL</Form.Label>
            <Form.Control
              {...form.bind('project_url')}
              type="url"
              inputMode="url"
              placeholder="https://example.com"
            />
            <Form.Control.Feedback type="invalid">{errors.project_url}</Form.Control.Feedback>
            {projectWarning && (
              <Form.Text className="text-warning-emphasis d-block">{projectWarning}</Form.Text>
            )}
          </Form.Group>
        </Col>
        <Col xs={12}>
          <Form.Group controlId="app-info">
            <Form.Label>Discription</Form.Label>
            <Form.Control {...form.bind('info')} as="textarea" rows={3} />
            <Form.Control.Feedback type="invalid">{errors.info}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="app-whitelist">
            <Form.Label>IP Whitelist</Form.Label>
            <Form.Control
              {...form.bind('whitelist_ip')}
              as="textarea"
              rows={3}
              placeholder="203.0.113.10, 198.51.100.0/24"
              aria-describedby="app-whitelist-help"
            />
            <Form.Control.Feedback type="invalid">{errors.whitelist_ip}</Form.Control.Feedback>
            <Form.Text id="app-whitelist-help" muted>
              IPv4/IPv6 addresses or CIDR ranges, separated by commas or new lines. Empty allows any
              address.
            </Form.Text>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="app-callback-url">
            <Form.Label>Webhook URl</Form.Label>
            <Form.Control
              {...form.bind('callback_url')}
              type="url"
              inputMode="url"
              placeholder="https://example.com/webhook"
            />
            <Form.Control.Feedback type="invalid">{errors.callback_url}</Form.Control.Feedback>
            {callbackWarning && (
              <Form.Text className="text-warning-emphasis d-block">{callbackWarning}</Form.Text>
            )}
          </Form.Group>
        </Col>
      </Row>
      {children}
      <div className="mt-4">
        <Button type="submit" disabled={submitting}>
          {submitting && <Spinner size="sm" className="me-2" aria-hidden />}
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
