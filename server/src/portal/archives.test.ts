import AdmZip from 'adm-zip';
import { parse } from 'csv-parse/sync';
import { addMerchant, credit } from '../../test/moneyFixtures';
import { insertApp, insertReceive } from '../../test/appRows';
import { expectRefusal } from '../../test/expectations';
import { testAppPerBlock } from '../../test/withTestApp';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  ARCHIVE_KIND,
  ARCHIVE_LIFETIME_MS,
  ARCHIVE_MESSAGES,
  pruneArchives,
} from '../domain/account/archives';
import { accountArchiveTask } from '../jobs';
import { startWorker, type Worker } from '../jobs/worker';
import { directoryFileStore } from '../storage/directoryStore';

// The settings panel's Download: asked for with the session, prepared by a job, announced in
// the notifications, downloaded through a signed link by its owner only, for a day.

describe('account archives', () => {
  const t = testAppPerBlock();
  let worker: Worker;

  beforeEach(async () => {
    worker = await startWorker({
      db: t.db,
      tasks: [
        accountArchiveTask({
          db: t.db,
          files: directoryFileStore(t.config.storageDir),
          feeLeg: false,
          clock: t.clock,
        }),
      ],
      log: { error: jest.fn(), warn: jest.fn() },
      clock: t.clock,
      pollMs: 0,
    });
  });
  afterEach(() => worker.stop());

  const request = (headers: { authorization: string }) =>
    t.call('requestAccountArchive', { headers });
  const link = (headers: { authorization: string }, id: string) =>
    t.call('createArchiveLink', { params: { id }, headers });
  const follow = (url: string) => t.inject({ method: 'GET', url });

  /** A merchant with a credit, and an app with one Receive row. */
  async function merchantWithRows(name: string) {
    const merchant = await addMerchant(t, name);
    await credit(t, merchant.id, '12.5');
    const appId = `app_${name}`;
    await insertApp(t, { id: appId, user_id: merchant.id, created_at: t.clock().toISOString() });
    await insertReceive(t, {
      id: `rcv_${name}`,
      app_id: appId,
      unique_id: 'order-1',
      amount_micro: 1_500_000,
      deposit_status: 3,
      created_at: t.clock().toISOString(),
    });
    return { ...merchant, appId };
  }

  /** The same, its archive asked for and made. */
  async function readyArchive(name: string) {
    const merchant = await merchantWithRows(name);
    const asked = await request(merchant.headers);
    expect(asked.statusCode).toBe(202);
    const archiveId: string = asked.json().data.id;
    await worker.drain();
    return { ...merchant, archiveId };
  }

  it('prepares the archive once, announces it, and downloads every file with its rows', async () => {
    const merchant = await merchantWithRows('arc_a');
    const { appId } = merchant;

    const first = await request(merchant.headers);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({
      status: true,
      msg: ARCHIVE_MESSAGES.preparing,
      data: { state: 'preparing', ready_at: null, expires_at: null },
    });
    const archiveId: string = first.json().data.id;
    // Asking again while it is prepared answers the same archive and queues nothing more.
    const again = await request(merchant.headers);
    expect(again.statusCode).toBe(202);
    expect(again.json().data.id).toBe(archiveId);
    const jobs = await t.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', ARCHIVE_KIND)
      .execute();
    expect(jobs).toHaveLength(1);
    // Not ready yet: no link.
    expectRefusal(await link(merchant.headers, archiveId), 409, ARCHIVE_MESSAGES.notReady);

    expect(await worker.drain()).toBe(1);

    const bell = await t.call('listNotifications', { headers: merchant.headers });
    const [event] = bell.json().data.data;
    expect(event).toMatchObject({
      kind: 'archive_ready',
      title: 'Account Archive Ready',
      archive_id: archiveId,
      read: false,
    });

    const made = await link(merchant.headers, archiveId);
    expect(made.statusCode).toBe(200);
    const file = await follow(made.json().data.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="account-${t.clock().toISOString().slice(0, 10)}.zip"`,
    );
    const zip = new AdmZip(file.rawPayload);
    const names = zip.getEntries().map((entry) => entry.entryName);
    expect(names).toEqual(
      expect.arrayContaining([
        'profile.json',
        'ledger-v1.csv',
        'top_ups-v1.csv',
        'subscriptions-v1.csv',
        `apps/${appId}/deposits-v1.csv`,
        `apps/${appId}/withdrawals-v1.csv`,
        `apps/${appId}/invoices-v1.csv`,
      ]),
    );
    const text = (name: string) => zip.readAsText(name);
    const profile = JSON.parse(text('profile.json'));
    expect(profile.profile).toMatchObject({ username: 'arc_a', name: 'Merchant arc_a' });
    expect(profile.kyc.status).toEqual(expect.any(String));
    expect(profile.apps).toEqual([{ id: appId, name: appId, folder: `apps/${appId}/` }]);
    // No document images, nor their stored names.
    expect(text('profile.json')).not.toMatch(/front|back|password|pin_hash|totp/);
    const ledger = parse(text('ledger-v1.csv')) as string[][];
    expect(ledger.map((r) => [r[3], r[4], r[5]])).toEqual([
      ['type', 'amount', 'currency'],
      ['credit', '12.5', 'USDT'],
    ]);
    const deposits = parse(text(`apps/${appId}/deposits-v1.csv`)) as string[][];
    expect(deposits.map((r) => [r[0], r[2]])).toEqual([
      ['id', 'unique_id'],
      ['rcv_arc_a', 'order-1'],
    ]);
  });

  it('gives another account a 404 for the archive, and refuses a malformed id or no session', async () => {
    const { archiveId } = await readyArchive('arc_b');
    const other = await addMerchant(t, 'arc_c');
    expectRefusal(await link(other.headers, archiveId), 404, ARCHIVE_MESSAGES.notFound);
    const malformed = await link(other.headers, '../etc/passwd');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json()).toMatchObject({ status: false, errors: { id: expect.any(Array) } });
    expect((await t.call('requestAccountArchive', {})).statusCode).toBe(401);
    expect((await t.call('createArchiveLink', { params: { id: archiveId } })).statusCode).toBe(401);
  });

  it('refuses an archive past its day, and a link altered or past its minute', async () => {
    const { archiveId } = await readyArchive('arc_d');
    // A link made just before the day ends works for its minute, but not past the archive's day.
    t.clock.advance(ARCHIVE_LIFETIME_MS - 30_000);
    // A session of now (the first one has idled out meanwhile).
    const headers = await t.authHeader('arc_d');
    const { url } = (await link(headers, archiveId)).json().data;
    const [, token = ''] = url.split('token=');
    const altered = `${url.slice(0, url.length - 2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expectRefusal(await follow(altered), 403, ARCHIVE_MESSAGES.linkInvalid);
    t.clock.advance(40_000);
    expectRefusal(await follow(url), 410, ARCHIVE_MESSAGES.expired);
    expectRefusal(await link(headers, archiveId), 410, ARCHIVE_MESSAGES.expired);
    t.clock.advance(60_000);
    expectRefusal(await follow(url), 403, ARCHIVE_MESSAGES.linkExpired);
    // A new archive may be asked for.
    const fresh = await request(headers);
    expect(fresh.json().data.id).not.toBe(archiveId);
  });

  it('marks an archive failed after its last attempt, says so, and lets the account ask again', async () => {
    const merchant = await merchantWithRows('arc_f');
    const files = directoryFileStore(t.config.storageDir);
    const failing = await startWorker({
      db: t.db,
      tasks: [
        accountArchiveTask({
          db: t.db,
          files: { ...files, putStream: () => Promise.reject(new Error('The disk is full')) },
          feeLeg: false,
          clock: t.clock,
        }),
      ],
      log: { error: jest.fn(), warn: jest.fn() },
      clock: t.clock,
      pollMs: 0,
    });
    const { id } = (await request(merchant.headers)).json().data;
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        // Other tests' archives left queued fail here too; this one is the one looked at.
        await failing.drain();
        t.clock.advance(60_000);
      }
    } finally {
      await failing.stop();
    }
    const headers = await t.authHeader('arc_f');
    const bell = await t.call('listNotifications', { headers });
    expect(bell.json().data.data[0]).toMatchObject({
      kind: 'archive_failed',
      title: 'Account Archive Failed',
    });
    expectRefusal(await link(headers, id), 410, ARCHIVE_MESSAGES.failed);
    expect((await request(headers)).json().data.id).not.toBe(id);
  });

  it("removes an archive's file past its day, and its link then says it expired", async () => {
    const { archiveId } = await readyArchive('arc_g');
    const file = path.join(t.config.storageDir, `${archiveId}.zip`);
    expect(existsSync(file)).toBe(true);
    const files = directoryFileStore(t.config.storageDir);
    // Archives of earlier tests may be past their day already; this one is not.
    await pruneArchives({ db: t.db, files }, t.clock());
    expect(existsSync(file)).toBe(true);
    t.clock.advance(ARCHIVE_LIFETIME_MS);
    expect(await pruneArchives({ db: t.db, files }, t.clock())).toBeGreaterThanOrEqual(1);
    expect(existsSync(file)).toBe(false);
    const headers = await t.authHeader('arc_g');
    expectRefusal(await link(headers, archiveId), 410, ARCHIVE_MESSAGES.expired);
  });

  it('refuses a token that is not an archive link in the envelope', async () => {
    const res = await t.call('downloadAccountArchive', { query: { token: 'nope' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ status: false, errors: { token: expect.any(Array) } });
  });
});
