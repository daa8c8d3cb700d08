import Card from 'react-bootstrap/Card';
import { Link, useNavigate } from 'react-router-dom';
import { useCreateAppMutation } from '../../api/apps';
import { paths } from '../../app/paths';
import { AppForm, EMPTY_APP_FORM, type AppFormValues } from './components/AppForm';
import { PlanNotice } from './components/PlanNotice';
import './apps.scss';
import { PageTitle } from '../../components/PageTitle';
import { useT } from '../../i18n/i18n';

/** /app/create-app: a new app lands in the sidebar (session) at once and opens its page. */
export default function CreateAppPage() {
  const t = useT();
  const [createApp, { isLoading }] = useCreateAppMutation();
  const navigate = useNavigate();

  const submit = async (values: AppFormValues) => {
    const result = await createApp({ createAppRequest: values }).unwrap();
    navigate(paths.myApp(result.app.id));
  };

  return (
    <section className="apps-page">
      <PageTitle
        actions={
          <Link to={paths.allApps} className="btn btn-outline-secondary btn-sm">
            {t('title.allApps')}
          </Link>
        }
      >
        {t('apps.create')}
      </PageTitle>
      <PlanNotice />
      <Card>
        <Card.Body>
          <AppForm
            initial={EMPTY_APP_FORM}
            submitLabel={t('apps.create')}
            submitting={isLoading}
            onSubmit={submit}
          />
        </Card.Body>
      </Card>
    </section>
  );
}
