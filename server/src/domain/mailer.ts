import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { ResolvedConfig } from '../config';
import { UnavailableError } from './errors';
import { systemClock, type Clock } from './time';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** One file of DATA_DIR/outbox (JSON), written when no SMTP_URL is configured. */
export interface OutboxMail extends MailMessage {
  from: string;
  sent_at: string;
}

export const OUTBOX_DIR = 'outbox';
const MAIL_UNAVAILABLE = 'We could not send the code by e-mail. Please try again in a few minutes.';

export type MailConfig = Pick<ResolvedConfig, 'smtpUrl' | 'mailFrom' | 'dataDir'>;

/** Where a mail's sending is logged: Fastify's logger, or the signer's own lines. */
export interface MailLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

// One pooled SMTP transport per URL for the life of the process. nodemailer (2 MB of code) is
// loaded at the first mail sent through SMTP: most processes never send one.
const transports = new Map<string, Transporter>();

async function transportFor(smtpUrl: string): Promise<Transporter> {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    const { createTransport } = await import('nodemailer');
    transport = transports.get(smtpUrl) ?? createTransport(smtpUrl);
    transports.set(smtpUrl, transport);
  }
  return transport;
}

let outboxSequence = 0;

/**
 * Sends through SMTP when SMTP_URL is set (a refusing or unreachable server makes the request
 * that wanted the mail fail as unavailable); otherwise (development, tests, e2e) the mail becomes
 * a JSON file in DATA_DIR/outbox, named so that they sort by time, plus a log line with its text.
 * The file is written under a name without `.json` and renamed, so that whoever reads the outbox
 * (an operator's script, a journey waiting for a code) never sees half a mail.
 */
export async function sendMail(
  config: MailConfig,
  message: MailMessage,
  log: MailLog,
  clock: Clock = systemClock,
): Promise<void> {
  if (config.smtpUrl) {
    try {
      await (await transportFor(config.smtpUrl)).sendMail({ from: config.mailFrom, ...message });
    } catch (err) {
      // The user is told to retry later; the operator gets the SMTP error.
      log.error({ err, to: message.to, subject: message.subject }, 'SMTP send failed');
      throw new UnavailableError(MAIL_UNAVAILABLE);
    }
    log.info({ to: message.to, subject: message.subject }, 'Mail sent');
    return;
  }
  const sentAt = clock().toISOString();
  const dir = path.join(config.dataDir, OUTBOX_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The sequence keeps two mails of one millisecond (a test clock) in the order they were sent.
  outboxSequence += 1;
  const file = path.join(
    dir,
    `${sentAt.replace(/[:.]/g, '-')}-${String(outboxSequence).padStart(9, '0')}-${randomBytes(4).toString('hex')}.json`,
  );
  const mail: OutboxMail = { from: config.mailFrom, sent_at: sentAt, ...message };
  writeFileSync(`${file}.part`, `${JSON.stringify(mail, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.part`, file);
  log.info({ to: message.to, subject: message.subject, file }, `Mail (outbox): ${message.text}`);
}

/** The outbox's mails, oldest first (tests and the e2e journeys read sign-in codes here). */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, OUTBOX_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as OutboxMail);
}
