import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { ChatIcon, PlusIcon, SendIcon } from '../../components/icons';
import './support.scss';
import { PageTitle } from '../../components/PageTitle';

// A static mock-up with no API behind it: sample figures and messages, no calls.
const COUNTS = ['New', 'Open', 'Close', 'Re-open'] as const;

const CONVERSATIONS = [
  {
    id: 1,
    subject: 'Deposit not credited',
    last: 'We are checking the transaction.',
    time: '10:12 AM',
  },
  { id: 2, subject: 'API key permissions', last: 'Thanks, that solved it!', time: 'Yesterday' },
  { id: 3, subject: 'Webhook retries', last: 'How many times is an IPN retried?', time: 'Mon' },
] as const;

const MESSAGES = [
  {
    from: 'you',
    text: 'Hello, my deposit from this morning is not in my wallet yet.',
    time: '9:58 AM',
  },
  { from: 'support', text: 'Hi! Could you share the transaction hash?', time: '10:03 AM' },
  { from: 'you', text: 'Sure: 0x3f5a9…e2f4a6 on BNB Smart Chain.', time: '10:05 AM' },
  { from: 'support', text: 'Thanks, we are checking the transaction.', time: '10:12 AM' },
] as const;

export default function SupportPage() {
  const [draft, setDraft] = useState('');
  return (
    <div className="support-page">
      <PageTitle
        actions={
          <Button size="sm">
            <PlusIcon width={16} height={16} className="me-1" />
            Raise Ticket
          </Button>
        }
      >
        Support
      </PageTitle>
      <div className="row g-3 mb-3">
        {COUNTS.map((label) => (
          <div className="col-6 col-lg-3" key={label}>
            <Card className="support-count h-100">
              <Card.Body>
                <div className="support-count__label">{label}</div>
                <div className="support-count__value" aria-label={`${label} tickets`}>
                  0
                </div>
              </Card.Body>
            </Card>
          </div>
        ))}
      </div>
      <Card className="support-chat">
        <div className="support-chat__list">
          <div className="support-chat__heading">Conversations</div>
          <ul className="list-unstyled mb-0">
            {CONVERSATIONS.map((c, index) => (
              <li key={c.id} className={`support-chat__item${index === 0 ? ' active' : ''}`}>
                <ChatIcon width={18} height={18} className="flex-none" />
                <div className="min-w-0">
                  <div className="d-flex justify-content-between gap-2">
                    <strong className="text-truncate">{c.subject}</strong>
                    <small className="text-muted text-nowrap">{c.time}</small>
                  </div>
                  <div className="small text-muted text-truncate">{c.last}</div>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div className="support-chat__thread">
          <div className="support-chat__heading">{CONVERSATIONS[0].subject}</div>
          <div className="support-chat__messages">
            {MESSAGES.map((m) => (
              <div key={m.time} className={`support-msg support-msg--${m.from}`}>
                <p className="mb-1">{m.text}</p>
                <small>{m.time}</small>
              </div>
            ))}
          </div>
          <Form className="support-chat__box" onSubmit={(event) => event.preventDefault()}>
            <Form.Label htmlFor="support-message" className="visually-hidden">
              Message
            </Form.Label>
            <Form.Control
              id="support-message"
              as="textarea"
              rows={1}
              placeholder="Type a message…"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
            />
            <Button type="submit" aria-label="Send message">
              <SendIcon width={18} height={18} />
            </Button>
          </Form>
        </div>
      </Card>
    </div>
  );
}
