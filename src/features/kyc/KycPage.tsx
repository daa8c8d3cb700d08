import Accordion from 'react-bootstrap/Accordion';
import Spinner from 'react-bootstrap/Spinner';
import { useListDocTypesQuery } from '../../api/kyc';
import { useProfile } from '../profile/useProfile';
import { DocumentSection } from './components/DocumentSection';
import { PersonalInfoSection } from './components/PersonalInfoSection';
import './kyc.scss';

/** Identity Verification: the personal section and one upload section per document type. */
export default function KycPage() {
  const profile = useProfile();
  const { data, isLoading } = useListDocTypesQuery();

  return (
    <div className="kyc-page">
      <h1 className="h4 mb-1">Identity Verification</h1>
      <p className="text-muted mb-3">
        Fill in your personal information and upload a proof for each document type. Each section is
        reviewed separately.
      </p>
      <Accordion defaultActiveKey={['personal']} alwaysOpen className="kyc-accordion">
        {profile ? (
          <PersonalInfoSection
            // A reviewed (locked) profile starts a fresh form.
            key={profile.is_profile_complete}
            profile={profile}
            eventKey="personal"
          />
        ) : null}
        {data?.data.map((type) => (
          <DocumentSection key={type.id} type={type} eventKey={type.id} />
        ))}
      </Accordion>
      {isLoading ? (
        <div className="text-center py-4">
          <Spinner animation="border" role="status">
            <span className="visually-hidden">Loading</span>
          </Spinner>
        </div>
      ) : null}
    </div>
  );
}
