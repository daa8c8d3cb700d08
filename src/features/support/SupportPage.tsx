import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { ChatIcon, PlusIcon, SendIcon } from '../../components/icons';
import './support.scss';
import { PageTitle } from '../../components/PageTitle';
import { useT, type MessageKey } from '../../i18n/i18n';

// A static mock-up with no API behind it: sample figures and messages, no calls.
const COUNTS: MessageKey[] = ['support.new', 'support.open', 'support.close', 'support.reopen'];

/** A sample conversation: its last message's clock time today, or the day it came. */
const CONVERSATIONS: {
  id: number;
  subject: MessageKey;
  last: MessageKey;
  time: { clock: string } | { day: MessageKey };
}[] = [
  { id: 1, subject: 'support.s1', last: 'support.s1last', time: { clock: '10:12 AM' } },
  {
    id: 2,
    subject: 'support.s2',
    last: 'support.s2last',
    time: { day: 'notifications.yesterday' },
  },
  { id: 3, subject: 'support.s3', last: 'support.s3last', time: { day: 'support.mon' } },
];

const SAMPLE_HASH = { hash: '0x3f5a9…e2f4a6', network: 'BNB Smart Chain' };
const MESSAGES: { from: 'you' | 'support'; text: MessageKey; time: string }[] = [
  { from: 'you', text: 'support.m1', time: '9:58 AM' },
  { from: 'support', text: 'support.m2', time: '10:03 AM' },
  { from: 'you', text: 'support.m3', time: '10:05 AM' },
  { from: 'support', text: 'support.m4', time: '10:12 AM' },
];

export default function SupportPage() {
  const t = useT();
  const [draft, setDraft] = useState('');
  return (
    <div className="support-page">
      <PageTitle
        actions={
          <Button size="sm">
            <PlusIcon width={16} height={16} className="me-1" />
            {t('support.raise')}
          </Button>
        }
      >
        {t('title.support')}
      </PageTitle>
      <div className="row g-3 mb-3">
        {COUNTS.map((label) => (
          <div className="col-6 col-lg-3" key={label}>
            <Card className="support-count h-100">
              <Card.Body>
                <div className="support-count__label">{t(label)}</div>
                <div
                  className="support-count__value"
                  aria-label={t('support.countLabel', { label: t(label) })}
                >
                  0
                </div>
              </Card.Body>
            </Card>
          </div>
        ))}
      </div>
      <Card className="support-chat">
        <div className="support-chat__list">
          <div className="support-chat__heading">{t('support.conversations')}</div>
          <ul className="list-unstyled mb-0">
            {CONVERSATIONS.map((c, index) => (
              <li key={c.id} className={`support-chat__item${index === 0 ? ' active' : ''}`}>
                <ChatIcon width={18} height={18} className="flex-none" />
                <div className="min-w-0">
                  <div className="d-flex justify-content-between gap-2">
                    <strong className="text-truncate">{t(c.subject)}</strong>
                    <small className="text-muted text-nowrap">
                      {'clock' in c.time ? c.time.clock : t(c.time.day)}
                    </small>
                  </div>
                  <div className="small text-muted text-truncate">{t(c.last)}</div>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div className="support-chat__thread">
          <div className="support-chat__heading">{t('support.s1')}</div>
          <div className="support-chat__messages">
            {MESSAGES.map((m) => (
              <div key={m.time} className={`support-msg support-msg--${m.from}`}>
                <p className="mb-1">{t(m.text, SAMPLE_HASH)}</p>
                <small>{m.time}</small>
              </div>
            ))}
          </div>
          <Form className="support-chat__box" onSubmit={(event) => event.preventDefault()}>
            <Form.Label htmlFor="support-message" className="visually-hidden">
              {t('support.message')}
            </Form.Label>
            <Form.Control
              id="support-message"
              as="textarea"
              rows={1}
              placeholder={t('support.placeholder')}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
            />
            <Button type="submit" aria-label={t('support.send')}>
              <SendIcon width={18} height={18} />
            </Button>
          </Form>
        </div>
      </Card>
    </div>
  );
}
