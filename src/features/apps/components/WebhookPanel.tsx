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

/**
 * Merchant Setting's webhook part: the signing secret (shown once when made, afterwards only
 * rotated), the switch a 410 Gone turns off, and Send test event with its outcome.
 */
export function WebhookPanel({ appId, hasUrl }: { appId: string; hasUrl: boolean }) {
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
          Webhook
        </Card.Title>
        <p className="small text-muted">
          Events are POSTed to the Webhook URl, signed the Standard Webhooks way (headers
          webhook-id, webhook-timestamp, webhook-signature). Verify them with the signing secret.
        </p>
        {data?.disabled_at && (
          <Alert variant="danger">
            <p className="mb-2">
              Webhook switched off on {formatDateTime(data.disabled_at)}: {data.disabled_reason}
            </p>
            <BusyButton
              size="sm"
              variant="outline-danger"
              busy={switching.isLoading}
              onClick={() => void switchOn({ id: appId })}
            >
              Switch webhook on
            </BusyButton>
          </Alert>
        )}
        <h4 className="h6">Signing secret</h4>
        {secret ? (
          <div>
            <Alert variant="warning" className="small">
              Copy this secret now. It is shown only once; afterwards it can only be rotated.
            </Alert>
            <Form.Group controlId="webhook-secret">
              <Form.Label visuallyHidden>Signing secret</Form.Label>
              <InputGroup>
                <Form.Control
                  value={secret}
                  readOnly
                  className="font-monospace"
                  onFocus={(e) => e.target.select()}
                />
                <CopyButton value={secret} label="Copy secret" size={undefined} />
              </InputGroup>
            </Form.Group>
          </div>
        ) : (
          <p className="small mb-2">
            {data?.has_secret && data.secret_created_at
              ? `Created ${formatDateTime(data.secret_created_at)}.`
              : 'No signing secret yet.'}
            {data?.previous_valid_until &&
              ` The previous secret also signs until ${formatDateTime(data.previous_valid_until)}.`}
          </p>
        )}
        <div className="d-flex flex-wrap gap-2 mt-2">
          <BusyButton
            variant="outline-primary"
            busy={rotating.isLoading}
            disabled={settings.isLoading || rotating.isLoading}
            onClick={() => void makeSecret()}
          >
            {data?.has_secret ? 'Rotate secret' : 'Create secret'}
          </BusyButton>
          <BusyButton
            variant="outline-secondary"
            busy={testing.isLoading}
            disabled={!hasUrl || testing.isLoading}
            onClick={() => void test()}
          >
            Send test event
          </BusyButton>
        </div>
        {!hasUrl && <p className="small text-muted mt-2">Save a Webhook URl to send events.</p>}
        <DeliveryOutcome answer={outcome} className="mt-3 mb-0" />
      </Card.Body>
    </Card>
  );
}
