import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import type { App } from '../../../api/apps';
import { filters, useForm, type FieldErrors } from '../../../components/form/useForm';
import { isLateWindow, normalTolerance } from '../../../shared/invoices';
import { t as translate, useT } from '../../../i18n/i18n';

interface InvoiceSettingsValues extends Record<string, string> {
  invoice_underpayment_tolerance: string;
  invoice_late_window_minutes: string;
}

/** What the server checks too (src/shared/invoices.ts), each with its INVOICE_MESSAGES one. */
function settingsErrors(values: InvoiceSettingsValues): FieldErrors<InvoiceSettingsValues> {
  const errors: FieldErrors<InvoiceSettingsValues> = {};
  if (normalTolerance(values.invoice_underpayment_tolerance) === null) {
    errors.invoice_underpayment_tolerance = translate('invoiceSettings.toleranceInvalid');
  }
  const late = values.invoice_late_window_minutes;
  if (late === '' || !isLateWindow(Number(late))) {
    errors.invoice_late_window_minutes = translate('invoiceSettings.lateInvalid');
  }
  return errors;
}

/**
 * Merchant Setting's invoice settings (not in the spec: the Invoices extension), a form of their
 * own sent with the app's Update. `checked()` shows their messages and answers the values to
 * send, or null.
 */
export function useInvoiceSettings(app: App) {
  const form = useForm<InvoiceSettingsValues>(
    {
      invoice_underpayment_tolerance: app.invoice_underpayment_tolerance,
      invoice_late_window_minutes: String(app.invoice_late_window_minutes),
    },
    {
      filters: {
        invoice_underpayment_tolerance: (raw) => raw.replace(/[^0-9.]/g, ''),
        invoice_late_window_minutes: filters.digits,
      },
      maxLength: { invoice_underpayment_tolerance: 5, invoice_late_window_minutes: 4 },
    },
  );
  const checked = () => {
    const errors = settingsErrors(form.values);
    form.setErrors(errors);
    if (Object.keys(errors).length > 0) return null;
    return {
      invoice_underpayment_tolerance: form.values.invoice_underpayment_tolerance,
      invoice_late_window_minutes: Number(form.values.invoice_late_window_minutes),
    };
  };
  return { form, checked };
}

export function InvoiceSettingsFields({
  form,
}: {
  form: ReturnType<typeof useInvoiceSettings>['form'];
}) {
  const t = useT();
  const { errors } = form;
  return (
    <fieldset className="mt-4">
      <legend className="h6">{t('invoiceSettings.legend')}</legend>
      <Row className="g-3">
        <Col md={6}>
          <Form.Group controlId="app-invoice-tolerance">
            <Form.Label>{t('invoiceSettings.tolerance')}</Form.Label>
            <Form.Control
              {...form.bind('invoice_underpayment_tolerance')}
              inputMode="decimal"
              aria-describedby="app-invoice-tolerance-help"
            />
            <Form.Control.Feedback type="invalid">
              {errors.invoice_underpayment_tolerance}
            </Form.Control.Feedback>
            <Form.Text id="app-invoice-tolerance-help" muted>
              {t('invoiceSettings.toleranceHelp')}
            </Form.Text>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="app-invoice-late-window">
            <Form.Label>{t('invoiceSettings.late')}</Form.Label>
            <Form.Control
              {...form.bind('invoice_late_window_minutes')}
              inputMode="numeric"
              aria-describedby="app-invoice-late-window-help"
            />
            <Form.Control.Feedback type="invalid">
              {errors.invoice_late_window_minutes}
            </Form.Control.Feedback>
            <Form.Text id="app-invoice-late-window-help" muted>
              {t('invoiceSettings.lateHelp')}
            </Form.Text>
          </Form.Group>
        </Col>
      </Row>
    </fieldset>
  );
}
