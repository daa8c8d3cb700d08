import Accordion from 'react-bootstrap/Accordion';
import { useListDocTypesQuery } from '../../api/kyc';
import { QueryState } from '../../components/QueryState';
import { useProfile } from '../../app/session/useProfile';
import { DocumentSection } from './components/DocumentSection';
import { PersonalInfoSection } from './components/PersonalInfoSection';
import './kyc.scss';
import { PageTitle } from '../../components/PageTitle';
import { useT } from '../../i18n/i18n';

/** Identity Verification: the personal section and one upload section per document type. */
export default function KycPage() {
  const t = useT();
  const profile = useProfile();
  const docTypes = useListDocTypesQuery();

  return (
    <div className="kyc-page">
      <PageTitle lead={t('kyc.lead')}>{t('title.kyc')}</PageTitle>
      <Accordion defaultActiveKey={['personal']} alwaysOpen className="kyc-accordion">
        {profile ? (
          <PersonalInfoSection
            // A reviewed (locked) profile starts a fresh form.
            key={profile.is_profile_complete}
            profile={profile}
            eventKey="personal"
          />
        ) : null}
        <QueryState query={docTypes} what={t('kyc.docTypesWhat')}>
          {(types) =>
            types.data.map((type) => (
              <DocumentSection key={type.id} type={type} eventKey={type.id} />
            ))
          }
        </QueryState>
      </Accordion>
    </div>
  );
}
