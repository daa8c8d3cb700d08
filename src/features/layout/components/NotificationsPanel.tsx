import Dropdown from 'react-bootstrap/Dropdown';
import { useNavigate } from 'react-router-dom';
import { BellIcon } from '../../../components/icons';

// Static sample entries, as the spec shows them: the panel makes no calls.
const GROUPS = [
  {
    title: 'Today',
    entries: [
      { time: '10:24 AM', text: 'A login to your account from Windows 10 using Chrome.' },
      { time: '08:02 AM', text: 'A login to your account from Android 14 using Chrome Mobile.' },
    ],
  },
  {
    title: 'Yesterday',
    entries: [{ time: '06:47 PM', text: 'A login to your account from macOS 14 using Safari.' }],
  },
] as const;

const COUNT = GROUPS.reduce((n, group) => n + group.entries.length, 0);

/** The bell and its panel of sample 'Account Login' entries; 'Read All' goes to `/`. */
export function NotificationsPanel() {
  const navigate = useNavigate();
  return (
    <Dropdown align="end" className="header-panel">
      <Dropdown.Toggle
        variant="link"
        className="header-icon-button"
        aria-label={`Notifications (${COUNT})`}
      >
        <BellIcon />
        <span className="header-icon-button__badge" aria-hidden="true">
          {COUNT}
        </span>
      </Dropdown.Toggle>
      <Dropdown.Menu className="header-panel__menu notifications-panel">
        <div className="header-panel__title">Notifications</div>
        {GROUPS.map((group) => (
          <section key={group.title} aria-label={group.title}>
            <div className="notifications-panel__group">{group.title}</div>
            <ul className="list-unstyled mb-0">
              {group.entries.map((entry) => (
                <li key={entry.time} className="notifications-panel__entry">
                  <div className="d-flex justify-content-between gap-2">
                    <strong>Account Login</strong>
                    <small className="text-muted text-nowrap">{entry.time}</small>
                  </div>
                  <p className="mb-0 small text-muted">{entry.text}</p>
                </li>
              ))}
            </ul>
          </section>
        ))}
        <div className="header-panel__footer">
          <button
            type="button"
            className="btn btn-primary btn-sm w-100"
            onClick={() => navigate('/')}
          >
            Read All
          </button>
        </div>
      </Dropdown.Menu>
    </Dropdown>
  );
}
