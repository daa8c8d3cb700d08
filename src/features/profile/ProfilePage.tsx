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

const EMPTY = '----';
const GENDER = { male: 'Male', female: 'Female', others: 'Others' } as const;

/** The read-only profile card; the pencil uploads a new avatar. */
export default function ProfilePage() {
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

  const countryName =
    countries?.data.find((country) => country.id === profile?.country)?.name ?? profile?.country;
  const rows: [string, string | null | undefined][] = [
    ['Name', profile?.name ?? session.name],
    ['Email', profile?.email ?? session.email],
    ['Gender', profile?.gender ? GENDER[profile.gender] : null],
    ['Date of Birth', profile?.dob ? formatDate(profile.dob) : null],
    ['Mobile Number', profile?.phone],
    ['Landmark', profile?.landmark],
    ['City', profile?.city],
    ['State', profile?.state],
    ['Country', countryName],
    ['Pincode', profile?.pincode],
  ];

  return (
    <div className="profile-page">
      <PageTitle>Profile</PageTitle>
      <Card className="profile-card">
        <Card.Body>
          <div className="profile-card__head">
            <div
              {...picker.getRootProps({
                className: `profile-card__avatar${picker.isDragActive ? ' is-active' : ''}`,
              })}
            >
              <input {...picker.getInputProps()} aria-label="Profile picture file" />
              <Avatar name={session.name} file={session.avatar} size={112} />
              <button
                type="button"
                className="profile-card__pencil"
                onClick={picker.open}
                disabled={uploading}
                aria-label="Change profile picture"
                title="Change profile picture"
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
              <div className="text-muted small mt-1">JPG, JPEG or PNG, up to 2 MB</div>
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
