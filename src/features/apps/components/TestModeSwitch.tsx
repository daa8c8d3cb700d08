import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router-dom';
import { useOpenTestModeMutation, type App } from '../../../api/apps';
import { paths } from '../../../app/paths';
import type { TabSlug } from '../appRules';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

/**
 * The app header's Test mode switch. On, it opens the app's test mode (its test app, made on
 * first use) and shows the same tab of it; off, it goes back to the live app. The URL names the
 * app shown, so a reload or a shared link keeps the mode.
 */
export function TestModeSwitch({ app, tab }: { app: App; tab: TabSlug }) {
  const t = useT();
  const navigate = useNavigate();
  const [openTestMode, { isLoading }] = useOpenTestModeMutation();
  const test = !app.livemode;

  async function toggle() {
    if (test) {
      if (app.live_app_id) navigate(paths.myApp(app.live_app_id, tab));
      return;
    }
    const opened = await openTestMode({ id: app.id })
      .unwrap()
      .catch(() => null);
    if (opened) navigate(paths.myApp(opened.app.id, tab));
  }

  return (
    <Form.Check
      type="switch"
      role="switch"
      id="test-mode-switch"
      className="app-detail__mode"
      label={t('testMode.switch')}
      checked={test}
      disabled={isLoading}
      onChange={() => void toggle()}
    />
  );
}

/** Above every tab of a test app: what the merchant looks at is not live money. */
export function TestModeBanner() {
  const t = useT();
  return (
    <div className="app-detail__test-banner" role="status">
      {withNodes(t, 'testMode.banner', {}, { mode: <strong>{t('testMode.label')}</strong> })}
    </div>
  );
}
