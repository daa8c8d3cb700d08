import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { CopyButton } from '../../../components/CopyButton';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

/** Where the server answers the gateway API, on the portal's own origin (server/src/gateway). */
const GATEWAY_PATH = '/gateway/v1';
/** Stands in for a key in the example once the new key is no longer shown: one of the mode's. */
const KEY_PLACEHOLDER = { live: 'csl_live_…', test: 'csl_test_…' };

/**
 * Where a merchant's servers send requests: the base URL, a curl example with the key just
 * generated (it is shown once, so afterwards a placeholder), and the reference page, which the
 * server serves outside the SPA (a plain link, opened in a new tab).
 */
export function GatewayQuickStart({
  apiKey,
  livemode,
}: {
  apiKey: string | null;
  livemode: boolean;
}) {
  const t = useT();
  const baseUrl = `${window.location.origin}${GATEWAY_PATH}`;
  const key = apiKey ?? KEY_PLACEHOLDER[livemode ? 'live' : 'test'];
  const example = `curl -H "Authorization: Bearer ${key}" ${baseUrl}/methods`;
  return (
    <Card className="mb-4">
      <Card.Body>
        <Card.Title as="h3" className="h6 fw-semibold">
          {t('gateway.title')}
        </Card.Title>
        <Form.Group controlId="gateway-base-url" className="mb-3">
          <Form.Label>{t('gateway.baseUrl')}</Form.Label>
          <InputGroup>
            <Form.Control
              value={baseUrl}
              readOnly
              className="font-monospace"
              onFocus={(e) => e.target.select()}
            />
            <CopyButton
              value={baseUrl}
              label={t('gateway.copyBaseUrl')}
              variant="outline-primary"
              size={undefined}
            >
              {t('copy.label')}
            </CopyButton>
          </InputGroup>
        </Form.Group>
        <Form.Group controlId="gateway-example" className="mb-2">
          <Form.Label>{t('gateway.example')}</Form.Label>
          {/* Full width, the copy button under it: the command wraps over a few lines on a phone. */}
          <Form.Control
            as="textarea"
            rows={3}
            value={example}
            readOnly
            className="font-monospace small"
            onFocus={(e) => e.target.select()}
          />
        </Form.Group>
        <CopyButton
          value={example}
          label={t('gateway.copyExample')}
          variant="outline-primary"
          className="mb-3"
        >
          {t('copy.label')}
        </CopyButton>
        <p className="small text-muted mb-2">
          {withNodes(
            t,
            'gateway.howTo',
            {},
            { bearer: <code>Authorization: Bearer</code>, header: <code>X-API-Key</code> },
          )}
        </p>
        <a href={`${GATEWAY_PATH}/docs`} target="_blank" rel="noopener">
          {t('gateway.reference')}
        </a>
      </Card.Body>
    </Card>
  );
}
