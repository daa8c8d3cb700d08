import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { CopyButton } from '../../../components/CopyButton';

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
  const baseUrl = `${window.location.origin}${GATEWAY_PATH}`;
  const key = apiKey ?? KEY_PLACEHOLDER[livemode ? 'live' : 'test'];
  const example = `curl -H "Authorization: Bearer ${key}" ${baseUrl}/methods`;
  return (
    <Card className="mb-4">
      <Card.Body>
        <Card.Title as="h3" className="h6 fw-semibold">
          Gateway API
        </Card.Title>
        <Form.Group controlId="gateway-base-url" className="mb-3">
          <Form.Label>Base URL</Form.Label>
          <InputGroup>
            <Form.Control
              value={baseUrl}
              readOnly
              className="font-monospace"
              onFocus={(e) => e.target.select()}
            />
            <CopyButton
              value={baseUrl}
              label="Copy base URL"
              variant="outline-primary"
              size={undefined}
            >
              Copy
            </CopyButton>
          </InputGroup>
        </Form.Group>
        <Form.Group controlId="gateway-example" className="mb-2">
          <Form.Label>Example request</Form.Label>
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
        <CopyButton value={example} label="Copy example" variant="outline-primary" className="mb-3">
          Copy
        </CopyButton>
        <p className="small text-muted mb-2">
          Send the key as <code>Authorization: Bearer</code> or <code>X-API-Key</code>, from your
          servers only. Each operation needs its permission: this one needs Read payment methods.
        </p>
        <a href={`${GATEWAY_PATH}/docs`} target="_blank" rel="noopener">
          API reference
        </a>
      </Card.Body>
    </Card>
  );
}
