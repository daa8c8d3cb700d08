import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useUpdateAppMutation, type App } from '../../../api/apps';
import { DateTime } from '../../../components/DateTime';
import { AppForm, type AppFormValues } from './AppForm';
import { AppLogoField } from './AppLogoField';
import { InvoiceSettingsFields, useInvoiceSettings } from './InvoiceSettingsFields';
import { WebhookPanel } from './WebhookPanel';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

/**
 * The app's settings, editable (same rules as Create App), its invoice settings (the Invoices
 * extension) and its Ready switch; below them its logo (an extension too).
 */
export function MerchantSettingTab({ app }: { app: App }) {
  const t = useT();
  const [update, { isLoading }] = useUpdateAppMutation();
  const [ready, setReady] = useState(app.status === 1);
  const invoiceSettings = useInvoiceSettings(app);

  const initial: AppFormValues = {
    app_name: app.app_name,
    project_url: app.project_url,
    info: app.info ?? '',
    // Stored one entry per line (the server normalises the list).
    whitelist_ip: app.whitelist_ip ?? '',
    callback_url: app.callback_url ?? '',
  };

  const submit = async (values: AppFormValues) => {
    const settings = invoiceSettings.checked();
    if (!settings) return;
    try {
      await update({
        updateAppRequest: { ...values, ...settings, app_id: app.id, status: ready ? 1 : 0 },
      }).unwrap();
    } catch (error) {
      invoiceSettings.form.applyServerErrors(error);
      throw error;
    }
  };

  return (
    <>
      <Card>
        <Card.Body>
          <AppForm
            key={app.id}
            initial={initial}
            submitLabel={t('merchant.update')}
            submitting={isLoading}
            onSubmit={submit}
            extraFields={<InvoiceSettingsFields form={invoiceSettings.form} />}
            whitelistNote={
              // A change of a whitelist already set holds the app's withdrawals (the signer
              // refuses them) until this time; the server sends it only while it is ahead.
              app.whitelist_hold_until &&
              withNodes(
                t,
                'merchant.whitelistHeld',
                {},
                { when: <DateTime value={app.whitelist_hold_until} /> },
              )
            }
          >
            <Form.Check
              type="switch"
              role="switch"
              id="app-ready"
              className="mt-3"
              label={t('merchant.ready')}
              checked={ready}
              onChange={(event) => setReady(event.target.checked)}
            />
          </AppForm>
        </Card.Body>
      </Card>
      <AppLogoField app={app} />
      <WebhookPanel appId={app.id} hasUrl={Boolean(app.callback_url)} />
    </>
  );
}
