import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { CopyButton } from '../../../components/CopyButton';
import { MSG } from '../appRules';
import { useT } from '../../../i18n/i18n';

/** The new key, shown once: it is not stored in plaintext anywhere and cannot be shown again. */
export function NewKeyPanel({ token, onBack }: { token: string; onBack: () => void }) {
  const t = useT();
  return (
    <div>
      <Alert variant="warning" className="small">
        {t('keys.copyNow')}
      </Alert>
      <Form.Group controlId="new-api-key">
        <Form.Label>{t('keys.yours')}</Form.Label>
        <InputGroup>
          <Form.Control
            value={token}
            readOnly
            className="font-monospace"
            onFocus={(e) => e.target.select()}
          />
          <CopyButton
            value={token}
            successText={MSG.keyCopied}
            label={t('security.copyKey')}
            variant="outline-primary"
            size={undefined}
          />
        </InputGroup>
      </Form.Group>
      <Button variant="secondary" className="mt-3" onClick={onBack}>
        {t('keys.back')}
      </Button>
    </div>
  );
}
