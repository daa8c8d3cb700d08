import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { useListCountriesQuery } from '../../api/auth';
import { useChangePictureMutation } from '../../api/profile';
import { useAppSelector } from '../../app/hooks';
import { Avatar } from '../../components/Avatar';
import { useImagePicker } from '../../components/ImagePicker';
import { PencilIcon } from '../../components/icons';
import { formatDate } from '../../lib/format';
import { selectSession } from '../../app/session/sessionSlice';
import { useProfile } from '../../app/session/useProfile';
import './profile.scss';
import { PageTitle } from '../../components/PageTitle';
import { countryName } from '../../i18n/countryName';
import { useT, type MessageKey } from '../../i18n/i18n';

const EMPTY = '----';
const GENDER: Record<'male' | 'female' | 'others', MessageKey> = {
  male: 'person.male',
  female: 'person.female',
  others: 'person.others',
};

/** The read-only profile card; the pencil uploads a new avatar. */
export default function ProfilePage() {
  const t = useT();
  const session = useAppSelector(selectSession);
  const profile = useProfile();
  const { data: countries } = useListCountriesQuery();
  const [changePicture, { isLoading: uploading }] = useChangePictureMutation();

  const upload = async (photo: File) => {
    try {
      // Header and sidebar read the session, which takes the new picture from this answer.
      await changePicture({ changePictureRequest: { photo } }).unwrap();
    } catch {
      // The failure is already a toast (API middleware); the old picture stays.
    }
  };
  const picker = useImagePicker((file) => void upload(file), {
    disabled: uploading,
    noClick: true,
  });

  const country = countries?.data.find((each) => each.id === profile?.country);
  const rows: [string, string | null | undefined][] = [
    [t('history.name'), profile?.name ?? session.name],
    [t('person.email'), profile?.email ?? session.email],
    [t('person.gender'), profile?.gender ? t(GENDER[profile.gender]) : null],
    [t('person.dob'), profile?.dob ? formatDate(profile.dob) : null],
    [t('person.mobile'), profile?.phone],
    [t('person.landmark'), profile?.landmark],
    [t('person.city'), profile?.city],
    [t('person.state'), profile?.state],
    [t('person.country'), country ? countryName(country) : profile?.country],
    [t('person.pincode'), profile?.pincode],
  ];

  return (
    <div className="profile-page">
      <PageTitle>{t('title.profile')}</PageTitle>
      <Card className="profile-card">
        <Card.Body>
          <div className="profile-card__head">
            <div
              {...picker.getRootProps({
                className: `profile-card__avatar${picker.isDragActive ? ' is-active' : ''}`,
              })}
            >
              <input {...picker.getInputProps()} aria-label={t('profile.pictureFile')} />
              <Avatar name={session.name} file={session.avatar} size={112} />
              <button
                type="button"
                className="profile-card__pencil"
                onClick={picker.open}
                disabled={uploading}
                aria-label={t('profile.changePicture')}
                title={t('profile.changePicture')}
              >
                {uploading ? (
                  <Spinner animation="border" size="sm" aria-hidden="true" />
                ) : (
                  <PencilIcon width={16} height={16} />
                )}
              </button>
            </div>
            <div className="min-w-0">
              <h2 className="h5 mb-1 text-truncate">{session.name}</h2>
              <div className="text-muted small">@{session.username}</div>
              <div className="text-muted small mt-1">{t('profile.pictureHint')}</div>
            </div>
          </div>
          <dl className="profile-card__fields">
            {rows.map(([label, value]) => (
              <div key={label} className="profile-card__field">
                <dt>{label}</dt>
                <dd>{value || EMPTY}</dd>
              </div>
            ))}
          </dl>
        </Card.Body>
      </Card>
    </div>
  );
}
