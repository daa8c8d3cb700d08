import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OUTBOX_DIR, readOutbox, sendMail } from './mailer';

// The outbox (no SMTP_URL): a reader that lists DATA_DIR/outbox/*.json while a mail is being
// written never meets half a file.

const log = { info: () => undefined, error: () => undefined };
let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailer-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const config = () => ({ smtpUrl: undefined, mailFrom: 'noreply@example.com', dataDir });

it('writes a mail under a name a reader skips, then renames it to .json whole', async () => {
  const seen: string[][] = [];
  const write = fs.writeFileSync;
  jest.spyOn(fs, 'writeFileSync').mockImplementation((file, ...rest) => {
    write(file, ...rest);
    // What a reader finds the moment the bytes are on disk, before the mail is complete.
    seen.push(fs.readdirSync(path.join(dataDir, OUTBOX_DIR)).filter((n) => n.endsWith('.json')));
  });

  await sendMail(
    config(),
    { to: 'a@example.com', subject: 'Code', text: 'Your code is 1234' },
    log,
  );

  expect(seen).toEqual([[]]);
  const names = fs.readdirSync(path.join(dataDir, OUTBOX_DIR));
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/\.json$/);
  expect(readOutbox(dataDir)).toEqual([
    expect.objectContaining({ to: 'a@example.com', subject: 'Code', text: 'Your code is 1234' }),
  ]);
});

it('reads the outbox oldest first and skips a mail still being written', async () => {
  await sendMail(config(), { to: 'a@example.com', subject: 'First', text: '1' }, log);
  await sendMail(config(), { to: 'a@example.com', subject: 'Second', text: '2' }, log);
  fs.writeFileSync(path.join(dataDir, OUTBOX_DIR, 'zzz.json.part'), '{"to":');

  expect(readOutbox(dataDir).map((m) => m.subject)).toEqual(['First', 'Second']);
});
