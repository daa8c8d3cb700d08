import Card from 'react-bootstrap/Card';
import { LayersIcon } from '../../components/icons';
import { PageTitle } from '../../components/PageTitle';
import { useT } from '../../i18n/i18n';

/** An empty placeholder page: the screen exists in the menu, with nothing behind it yet. */
export default function UsagesPage() {
  const t = useT();
  return (
    <div>
      <PageTitle>{t('title.usages')}</PageTitle>
      <Card className="text-center text-muted py-5">
        <Card.Body>
          <LayersIcon width={40} height={40} className="mb-2 opacity-50" />
          <p className="mb-0">{t('usages.empty')}</p>
        </Card.Body>
      </Card>
    </div>
  );
}
