import { newId } from '../../domain/ids';
import { SIGNER_REFUSED, type SignerAnswer } from '../client/protocol';
import type { SignerDeps } from './deps';

// A request the signer cannot trust (a MAC that does not match its row, a payout address it does
// not know, a sweep asked for while the address is held) is refused with nothing signed, and said
// out loud: a row in the signer's own store and in the shared database's signer_refusals, a log
// line, and an e-mail to the operator (OPERATOR_EMAIL) and to the app's merchant, sent by the
// signer itself so that a compromised web process cannot hold it back (once per request, row and
// reason). The web process counts a signer_refused answer (signer_refusals_total).

export interface Distrust {
  /** What was asked: a withdrawal, a refund, a sweep, or a registration of an app's settings. */
  request: 'withdrawal' | 'refund' | 'sweep' | 'registration';
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
    await this.record(d);
    return { state: 'refused', code: SIGNER_REFUSED, reason: d.reason };
  }

  /** Records `d` in both places and alerts, once per request, row and reason. */
  async record(d: Distrust): Promise<void> {
    const now = this.deps.clock();
    const at = now.toISOString();
    const { repeated } = this.deps.store.recordRefusal(d, now.getTime());
    this.deps.log({
      level: 'warn',
      msg: 'refused',
      request: d.request,
      ref: d.refId,
      reason: d.reason,
    });
    // Asked again: on record and announced already.
    if (repeated) return;
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
    await this.alert(d, at);
  }

  private alert(d: Distrust, at: string): Promise<void> {
    return this.mail(d.appId, SUBJECT, alertText(d, at));
  }

  /**
   * Mails the operator and the app's merchant (its owner's address, read from the shared
   * database); a mail that fails is logged, whatever was decided stands.
   */
  async mail(appId: string | null, subject: string, text: string): Promise<void> {
    const merchant = appId
      ? await this.deps.db
          .selectFrom('apps')
          .innerJoin('users', 'users.id', 'apps.user_id')
          .select('users.email')
          .where('apps.id', '=', appId)
          .executeTakeFirst()
      : undefined;
    const to = [this.deps.settings.operatorEmail, merchant?.email].filter(
      (address): address is string => Boolean(address),
    );
    for (const address of new Set(to)) {
      try {
        await this.deps.mail({ to: address, subject, text });
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
