import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useRemoveAppLogoMutation, useUploadAppLogoMutation, type App } from '../../../api/apps';
import { isApiError } from '../../../api/errors';
import { publicImageUrl } from '../../../api/profile';
import { useImagePicker } from '../../../components/ImagePicker';
import { CloseIcon, UploadIcon } from '../../../components/icons';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

/** What the refused upload says under the field: the server's message for `logo`, else its msg. */
function refusalOf(error: unknown): string | null {
  if (!isApiError(error) || error.kind !== 'failure') return null;
  return error.fieldErrors.logo?.[0] ?? error.message;
}

/**
 * Merchant Setting's Logo (not in the spec: shown on the app's checkout and payment link pages).
 * A picked picture is uploaded at once, like the avatar; Remove drops it. The picker refuses what
 * the server would (type, size) before sending anything.
 */
export function AppLogoField({ app }: { app: App }) {
  const t = useT();
  const [upload, { isLoading: uploading }] = useUploadAppLogoMutation();
  const [remove, { isLoading: removing }] = useRemoveAppLogoMutation();
  const [refusal, setRefusal] = useState<string | null>(null);
  const busy = uploading || removing;

  const send = async (logo: File) => {
    setRefusal(null);
    try {
      await upload({ id: app.id, uploadAppLogoRequest: { logo } }).unwrap();
    } catch (error) {
      // Also a toast (API middleware); the logo it had stays.
      setRefusal(refusalOf(error));
    }
  };
  const drop = async () => {
    setRefusal(null);
    try {
      await remove({ id: app.id }).unwrap();
    } catch {
      // The failure is already a toast; the logo stays.
    }
  };
  const { getRootProps, getInputProps, isDragActive } = useImagePicker((file) => void send(file), {
    disabled: busy,
  });

  return (
    <Card className="mt-3">
      <Card.Body>
        <Form.Group className="image-picker app-logo">
          <Form.Label htmlFor="app-logo">{t('logo.label')}</Form.Label>
          <div
            {...getRootProps({
              className: [
                'image-picker__zone',
                isDragActive ? 'is-active' : '',
                refusal ? 'is-invalid' : '',
                busy ? 'is-disabled' : '',
              ].join(' '),
            })}
          >
            <input
              {...getInputProps({ id: 'app-logo' })}
              aria-label={t('logo.label')}
              aria-invalid={Boolean(refusal)}
              aria-describedby="app-logo-help"
            />
            {app.logo ? (
              <div className="image-picker__picked">
                <img
                  src={publicImageUrl(app.logo)}
                  alt={t('logo.alt', { name: app.app_name })}
                  width={96}
                  height={96}
                />
              </div>
            ) : (
              <div className="image-picker__hint">
                {uploading ? (
                  <Spinner animation="border" size="sm" aria-hidden="true" />
                ) : (
                  <UploadIcon width={28} height={28} />
                )}
                <span>
                  {withNodes(
                    t,
                    'picker.drop',
                    {},
                    { browse: <span className="text-primary">{t('picker.browse')}</span> },
                  )}
                </span>
              </div>
            )}
          </div>
          <Form.Text id="app-logo-help" className="d-block">
            {t('logo.help')}
          </Form.Text>
          {refusal ? <div className="invalid-feedback d-block">{refusal}</div> : null}
          {app.logo ? (
            <Button
              variant="link"
              size="sm"
              className="image-picker__remove px-0"
              onClick={() => void drop()}
              disabled={busy}
            >
              <CloseIcon width={14} height={14} className="me-1" />
              {t('picker.remove')}
            </Button>
          ) : null}
        </Form.Group>
      </Card.Body>
    </Card>
  );
}
