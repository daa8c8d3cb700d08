import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { addUser } from '../../../test/accounts';
import { insertApp } from '../../../test/appRows';
import { startReceiver, type ReceivedHook } from '../../../test/webhookReceiver';
import { testAppPerBlock } from '../../../test/withTestApp';
import { ROOT_DIR } from '../../paths';
import { webhookDeps } from './delivery';
import { sendTestPing } from './portal';
import { rotateWebhookSecret } from './secrets';

// The integration guide's "verify a delivery in Node" snippets, taken from docs/gateway.md as
// they are written and run by Node (as ES modules, from the repository root) against real signed
// deliveries: the text a merchant copies cannot drift from what the server sends.
// test:pg leaves this file to SQLite: a snippet's check of a signature, whatever stored the event.

const run = promisify(execFile);

/** The ```js block of docs/gateway.md that contains `marker`. */
function guideSnippet(marker: string): string {
  const guide = readFileSync(path.join(ROOT_DIR, 'docs', 'gateway.md'), 'utf8');
  const block = [...guide.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .find((code) => code.includes(marker));
  if (!block) throw new Error(`docs/gateway.md has no js block with ${marker}`);
  return block;
}

/** Runs the snippet, then `call` (an expression over secret, headers, body); answers its JSON. */
async function runSnippet(
  snippet: string,
  call: string,
  secret: string,
  hook: Pick<ReceivedHook, 'headers' | 'body'>,
): Promise<unknown> {
  const script = `${snippet}
const { secret, headers, body } = JSON.parse(process.env.HOOK);
let result;
try { result = ${call}; } catch (err) { result = { threw: err.message }; }
console.log(JSON.stringify(result));
`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH, HOOK: JSON.stringify({ secret, ...hook }) },
  });
  return JSON.parse(stdout) as unknown;
}

describe('docs/gateway.md: verifying a delivery in Node', () => {
  const t = testAppPerBlock({ env: { WEBHOOK_ALLOW_PRIVATE: '1' } });

  it('both snippets accept a real delivery, before and after a rotation, and refuse a forged one or one missing a header without throwing', async () => {
    const receiver = await startReceiver();
    try {
      t.clock.set(new Date());
      const userId = await addUser(t, 'readme');
      await insertApp(t, {
        id: 'app_readme',
        user_id: userId,
        created_at: t.clock().toISOString(),
        callback_url: receiver.url(),
      });
      const deps = webhookDeps(t.config, t.db, t.clock);
      const first = await rotateWebhookSecret(t.db, t.config.secretKey, 'app_readme', t.clock());
      await sendTestPing(deps, 'app_readme');
      // Rotated: the next delivery carries both signatures, space-separated.
      const second = await rotateWebhookSecret(t.db, t.config.secretKey, 'app_readme', t.clock());
      await sendTestPing(deps, 'app_readme');
      const [plain, rotated] = receiver.received;
      if (!plain || !rotated) throw new Error('deliveries missing');
      expect(rotated.headers['webhook-signature']?.split(' ')).toHaveLength(2);
      const forged = { ...plain, body: plain.body.replace('test.ping', 'test.pong') };

      const byHand = guideSnippet("from 'node:crypto'");
      const check = (secret: string, hook: ReceivedHook) =>
        runSnippet(byHand, 'verify(secret, headers, body)', secret, hook);
      expect(await check(first, plain)).toBe(true);
      expect(await check(first, rotated)).toBe(true);
      expect(await check(second, rotated)).toBe(true);
      expect(await check(second, plain)).toBe(false);
      expect(await check(first, forged)).toBe(false);

      const withPackage = guideSnippet("from 'standardwebhooks'");
      const event = (secret: string, hook: ReceivedHook) =>
        runSnippet(withPackage, 'verifyEvent(secret, headers, body)', secret, hook);
      expect(await event(first, plain)).toEqual(JSON.parse(plain.body));
      expect(await event(second, rotated)).toEqual(JSON.parse(rotated.body));
      expect(await event(first, forged)).toBeNull();

      // A request without one of the headers (not a delivery of ours) is refused, not thrown at.
      for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        const { [header]: _left, ...others } = plain.headers;
        const stripped = { ...plain, headers: others };
        expect(await check(first, stripped)).toBe(false);
        expect(await event(first, stripped)).toBeNull();
      }
    } finally {
      await receiver.close();
    }
  });
});
