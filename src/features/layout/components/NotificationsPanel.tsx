import moment from 'moment';
import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { useNavigate } from 'react-router-dom';
import { useCreateArchiveLinkMutation } from '../../../api/archives';
import {
  useListNotificationsQuery,
  useMarkNotificationsReadMutation,
  type AccountEvent,
} from '../../../api/notifications';
import { BellIcon } from '../../../components/icons';
import { Loading } from '../../../components/QueryState';
import { useT } from '../../../i18n/i18n';
import { followDownloadLink } from '../../../lib/followLink';
import { formatDateTime, formatTime } from '../../../lib/format';

// On a phone the panel is nearly as wide as the screen: keep it off the screen's edges.
const KEEP_OFF_EDGES = {
  modifiers: [{ name: 'preventOverflow', options: { padding: 8 } }],
};

/**
 * The bell reads the events again this often while the tab is in view, so what the server
 * records meanwhile (an account archive made ready, a sign-in elsewhere) shows in the badge
 * without a click; a hidden tab reads nothing (docs/decisions.md, Notifications).
 */
export const NOTIFICATIONS_POLL_MS = 60_000;

const FRESHNESS = {
  refetchOnFocus: true,
  pollingInterval: NOTIFICATIONS_POLL_MS,
  skipPollingIfUnfocused: true,
} as const;

type Group = {
  title: 'notifications.today' | 'notifications.yesterday' | 'notifications.earlier';
  entries: AccountEvent[];
};

/** The events under Today, Yesterday and Earlier (local days), newest first, empty groups left out. */
function groupByDay(events: readonly AccountEvent[], now = moment()): Group[] {
  const today = now.clone().startOf('day');
  const yesterday = today.clone().subtract(1, 'day');
  const groups: Group[] = [
    { title: 'notifications.today', entries: [] },
    { title: 'notifications.yesterday', entries: [] },
    { title: 'notifications.earlier', entries: [] },
  ];
  for (const event of events) {
    const at = moment(event.created_at);
    const index = at.isSameOrAfter(today) ? 0 : at.isSameOrAfter(yesterday) ? 1 : 2;
    groups[index]?.entries.push(event);
  }
  return groups.filter((group) => group.entries.length > 0);
}

/**
 * A ready archive's download: its link is made when clicked (a link works a minute); a refusal,
 * such as an archive past its day, is toasted (app/middleware/apiFeedback.ts).
 */
function ArchiveDownload({ id }: { id: string }) {
  const t = useT();
  const [createArchiveLink, linking] = useCreateArchiveLinkMutation();
  const download = async () => {
    try {
      const { data } = await createArchiveLink({ id }).unwrap();
      followDownloadLink(data.url);
    } catch {
      // Toasted already.
    }
  };
  return (
    <button
      type="button"
      className="btn btn-link btn-sm p-0"
      disabled={linking.isLoading}
      onClick={() => void download()}
    >
      {t('archive.download')}
    </button>
  );
}

/**
 * The bell: the account's security events as the server recorded them (the spec's panel shows
 * static samples and makes no calls; see docs/decisions.md, Notifications). The badge counts
 * unread events; Read All marks those shown read, then goes to `/` as the spec has it.
 */
export function NotificationsPanel() {
  const navigate = useNavigate();
  const t = useT();
  const [open, setOpen] = useState(false);
  const list = useListNotificationsQuery({}, FRESHNESS);
  const [markRead, marking] = useMarkNotificationsReadMutation();
  const events = list.data?.data.data ?? [];
  const unread = list.data?.unread ?? 0;

  const toggle = (next: boolean) => {
    setOpen(next);
    // Opening shows what happened since (a sign-in elsewhere), not the answer from page load.
    if (next) void list.refetch();
  };

  const readAll = async () => {
    const newest = events[0];
    try {
      if (newest) await markRead({ until: newest.id }).unwrap();
    } catch {
      // The error toast has told the user; the panel still goes where the spec says.
    }
    setOpen(false);
    void navigate('/');
  };

  return (
    <Dropdown align="end" className="header-panel" show={open} onToggle={toggle}>
      {/* Named by hidden text, not aria-label: axe and Lighthouse want an aria-label to contain
          the visible badge, which a screen reader would then read twice. */}
      <Dropdown.Toggle variant="link" className="header-icon-button">
        <span className="visually-hidden">{t('notifications.toggle', { count: unread })}</span>
        <BellIcon />
        {unread > 0 ? (
          <span className="header-icon-button__badge" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </Dropdown.Toggle>
      <Dropdown.Menu
        className="header-panel__menu notifications-panel"
        popperConfig={KEEP_OFF_EDGES}
      >
        <div className="header-panel__title">{t('notifications.title')}</div>
        {list.isLoading ? (
          <div className="text-center py-3">
            <Loading label={t('notifications.loading')} small />
          </div>
        ) : null}
        {list.isError && events.length === 0 ? (
          <p className="notifications-panel__empty">{t('notifications.failed')}</p>
        ) : null}
        {list.isSuccess && events.length === 0 ? (
          <p className="notifications-panel__empty">{t('notifications.empty')}</p>
        ) : null}
        {groupByDay(events).map((group) => (
          <section key={group.title} aria-label={t(group.title)}>
            <div className="notifications-panel__group">{t(group.title)}</div>
            <ul className="list-unstyled mb-0">
              {group.entries.map((entry) => (
                <li
                  key={entry.id}
                  className={`notifications-panel__entry${entry.read ? '' : ' notifications-panel__entry--unread'}`}
                >
                  <div className="d-flex justify-content-between gap-2">
                    <strong>
                      {entry.read ? null : (
                        <span className="visually-hidden">{`${t('notifications.unread')} `}</span>
                      )}
                      {entry.title}
                    </strong>
                    <small className="text-muted text-nowrap">
                      {group.title === 'notifications.earlier'
                        ? formatDateTime(entry.created_at)
                        : formatTime(entry.created_at)}
                    </small>
                  </div>
                  <p className="mb-0 small text-muted">{entry.text}</p>
                  {entry.archive_id === undefined ? null : (
                    <ArchiveDownload id={entry.archive_id} />
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
        <div className="header-panel__footer">
          <button
            type="button"
            className="btn btn-primary btn-sm w-100"
            disabled={marking.isLoading}
            onClick={() => void readAll()}
          >
            {t('notifications.readAll')}
          </button>
        </div>
      </Dropdown.Menu>
    </Dropdown>
  );
}
