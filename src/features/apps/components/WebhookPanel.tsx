import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { BusyButton } from '../../../components/BusyButton';
import { CopyButton } from '../../../components/CopyButton';
import {
  useGetWebhookSettingsQuery,
  useRotateWebhookSecretMutation,
  useSendTestWebhookMutation,
  useSwitchWebhookOnMutation,
  type WebhookDeliveryResponse,
} from '../../../api/webhooks';
import { formatDateTime } from '../../../lib/format';
import { DeliveryOutcome } from './DeliveryOutcome';
import { useT } from '../../../i18n/i18n';

/**
 * Merchant Setting's webhook part: the signing secret (shown once when made, afterwards only
 * rotated), the switch a 410 Gone turns off, and Send test event with its outcome.
 */
export function WebhookPanel({ appId, hasUrl }: { appId: string; hasUrl: boolean }) {
  const t = useT();
  const settings = useGetWebhookSettingsQuery({ id: appId });
  const [rotate, rotating] = useRotateWebhookSecretMutation();
  const [sendTest, testing] = useSendTestWebhookMutation();
  const [switchOn, switching] = useSwitchWebhookOnMutation();
  const [secret, setSecret] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<WebhookDeliveryResponse | null>(null);
  const data = settings.data?.data;

  // Failures are toasted by the API feedback middleware; only a success changes the panel.
  const makeSecret = async () => {
    const answer = await rotate({ id: appId });
    if (answer.data) setSecret(answer.data.secret);
  };
  const test = async () => {
    const answer = await sendTest({ id: appId });
    if (answer.data) setOutcome(answer.data);
  };

  return (
    <Card className="mt-3">
      <Card.Body>
        <Card.Title as="h3" className="h5">
          {t('webhook.title')}
        </Card.Title>
        <p className="small text-muted">{t('webhook.intro')}</p>
        {data?.disabled_at && (
          <Alert variant="danger">
            <p className="mb-2">
              {t('webhook.off', {
                when: formatDateTime(data.disabled_at),
                reason: data.disabled_reason ?? '',
              })}
            </p>
            <BusyButton
              size="sm"
              variant="outline-danger"
              busy={switching.isLoading}
              onClick={() => void switchOn({ id: appId })}
            >
              {t('webhook.switchOn')}
            </BusyButton>
          </Alert>
        )}
        <h4 className="h6">{t('webhook.secret')}</h4>
        {secret ? (
          <div>
            <Alert variant="warning" className="small">
              {t('webhook.copyNow')}
            </Alert>
            <Form.Group controlId="webhook-secret">
              <Form.Label visuallyHidden>{t('webhook.secret')}</Form.Label>
              <InputGroup>
                <Form.Control
                  value={secret}
                  readOnly
                  className="font-monospace"
                  onFocus={(e) => e.target.select()}
                />
                <CopyButton value={secret} label={t('webhook.copySecret')} size={undefined} />
              </InputGroup>
            </Form.Group>
          </div>
        ) : (
          <p className="small mb-2">
            {data?.has_secret && data.secret_created_at
              ? t('webhook.created', { when: formatDateTime(data.secret_created_at) })
              : t('webhook.noSecret')}
            {data?.previous_valid_until &&
              ` ${t('webhook.previous', { when: formatDateTime(data.previous_valid_until) })}`}
          </p>
        )}
        <div className="d-flex flex-wrap gap-2 mt-2">
          <BusyButton
            variant="outline-primary"
            busy={rotating.isLoading}
            disabled={settings.isLoading || rotating.isLoading}
            onClick={() => void makeSecret()}
          >
            {data?.has_secret ? t('webhook.rotate') : t('webhook.create')}
          </BusyButton>
          <BusyButton
            variant="outline-secondary"
            busy={testing.isLoading}
            disabled={!hasUrl || testing.isLoading}
            onClick={() => void test()}
          >
            {t('webhook.test')}
          </BusyButton>
        </div>
        {!hasUrl && <p className="small text-muted mt-2">{t('webhook.needUrl')}</p>}
        <DeliveryOutcome answer={outcome} className="mt-3 mb-0" />
      </Card.Body>
    </Card>
  );
}
