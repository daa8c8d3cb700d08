import { newId } from '../../domain/ids';
import { SIGNER_REFUSED, type SignerAnswer } from '../client/protocol';
import type { SignerDeps } from './deps';

// A request the signer cannot trust (a MAC that does not match its row, a payout address it does
// not know) is refused with nothing signed, and said out loud: a signer_refusals row in the
// shared database (what the portal's operator reads), a log line, and an e-mail to the operator
// (OPERATOR_EMAIL) and to the app's merchant, sent by the signer itself so that a compromised web
// process cannot hold it back. The web process counts the answer (signer_refusals_total).

export interface Distrust {
  /** What was asked: withdrawal or sweep. */
  request: 'withdrawal' | 'sweep';
  /** The row it named. */
  refId: string;
  appId: string | null;
  reason: string;
}

const SUBJECT = 'Alert: the signer refused a payment it could not trust';

function alertText(d: Distrust, at: string): string {
  return [
    `At ${at} the gateway's signer refused a ${d.request} (${d.refId}${d.appId ? `, app ${d.appId}` : ''}) and signed nothing.`,
    '',
    `Reason: ${d.reason}`,
    '',
    'The request did not match what the gateway accepted: its database was edited, or its web',
    'server asked for something no merchant asked for. Nothing left the wallet. Check who can',
    "write the gateway's database and the web server's host before anything else.",
  ].join('\n');
}

export class Refusals {
  constructor(private readonly deps: SignerDeps) {}

  /** Records and announces `d`, and answers the web process: refused, signer_refused. */
  async refuse(d: Distrust): Promise<SignerAnswer> {
    const at = this.deps.clock().toISOString();
    await this.deps.db
      .insertInto('signer_refusals')
      .values({
        id: newId('srf'),
        request: d.request,
        ref_id: d.refId,
        app_id: d.appId,
        reason: d.reason,
        created_at: at,
      })
      .execute();
    this.deps.log({
      level: 'warn',
      msg: 'refused',
      request: d.request,
      ref: d.refId,
      reason: d.reason,
    });
    await this.alert(d, at);
    return { state: 'refused', code: SIGNER_REFUSED, reason: d.reason };
  }

  /** The operator and the app's merchant; a mail that fails is logged, the refusal stands. */
  private async alert(d: Distrust, at: string): Promise<void> {
    const merchant = d.appId
      ? await this.deps.db
          .selectFrom('apps')
          .innerJoin('users', 'users.id', 'apps.user_id')
          .select('users.email')
          .where('apps.id', '=', d.appId)
          .executeTakeFirst()
      : undefined;
    const to = [this.deps.settings.operatorEmail, merchant?.email].filter(
      (address): address is string => Boolean(address),
    );
    const text = alertText(d, at);
    for (const address of new Set(to)) {
      try {
        await this.deps.mail({ to: address, subject: SUBJECT, text });
      } catch (error) {
        this.deps.log({
          level: 'error',
          msg: 'alert mail failed',
          to: address,
          err: String(error),
        });
      }
    }
  }
}
