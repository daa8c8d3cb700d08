import type { SignerAnswer, SignerRequest } from '../client/protocol';
import { verifyRequestMac, type MacedRequest } from '../client/requestMac';
import type { SignerDeps } from './deps';
import { planRank } from './caps';
import type { Refusals } from './refusals';

/** The registration a request names, as its MAC covers it. */
function registered(r: Registration): Registered {
  if (r.op === 'registerPayout') {
    return {
      kind: 'payout',
      appId: r.appId,
      paymentMethodId: r.paymentMethodId,
      address: r.address,
      at: r.at,
    };
  }
  if (r.op === 'registerWhitelist') {
    return { kind: 'whitelist', appId: r.appId, whitelistHash: r.whitelistHash, at: r.at };
  }
  return {
    kind: 'plan',
    appId: r.appId,
    packageId: r.packageId,
    until: r.until ?? null,
    at: r.at,
  };
}

// An app's settings that steer money reach the signer's store only through its socket, each with
// the MAC the web process made as the merchant changed them, and are stamped with the signer's
// own clock: the hold of a changed payout address or whitelist (SIGNER_HOLD_HOURS) runs from when
// the signer heard of it, so nothing written to the shared database shortens or clears it. A
// registration without the gateway's MAC is refused as untrusted, recorded and alerted. A change
// that is held is announced by the signer itself to the operator and the merchant, so that a
// compromised web process that registers an address of its own cannot keep it quiet: the hold is
// the time they have to act.

type Registration = Extract<
  SignerRequest,
  { op: 'registerPayout' | 'registerWhitelist' | 'registerPlan' }
>;
type Registered = Exclude<MacedRequest, { kind: 'withdrawal' | 'refund' }>;

export class Registrations {
  constructor(
    private readonly deps: SignerDeps,
    private readonly refusals: Refusals,
  ) {}

  async register(r: Registration): Promise<SignerAnswer> {
    const request = registered(r);
    if (
      request.kind === 'plan' &&
      request.until !== null &&
      Number.isNaN(Date.parse(request.until))
    ) {
      return {
        state: 'refused',
        reason: `A plan registration's end is not a time: ${request.until}`,
      };
    }
    if (!verifyRequestMac(this.deps.requestKey, request, r.mac)) {
      return this.refusals.refuse({
        request: 'registration',
        refId: request.kind === 'payout' ? `payout:${request.paymentMethodId}` : request.kind,
        appId: r.appId,
        reason: `A ${request.kind} registration of app ${r.appId} does not carry the gateway's MAC.`,
      });
    }
    const now = this.deps.clock().getTime();
    const taken = this.take(request, now);
    const heldUntil =
      taken.until !== null && taken.until > now ? new Date(taken.until).toISOString() : null;
    this.deps.log({ msg: 'registered', ...request, heldUntil });
    if (taken.changed && heldUntil !== null) {
      const what =
        request.kind === 'payout'
          ? `payout address for ${request.paymentMethodId} changes to ${request.address}`
          : request.kind === 'plan'
            ? `plan changes to ${request.packageId}${request.until === null ? '' : ` until ${request.until}`}, which raises or prolongs its daily caps on money out`
            : 'IP whitelist changed';
      await this.refusals.mail(
        request.appId,
        `Notice: a change of app ${request.appId} takes effect on ${heldUntil}`,
        [
          `The app ${request.appId}'s ${what}. The gateway's signer holds it until ${heldUntil}:`,
          request.kind === 'payout'
            ? 'until then no sweep goes to the new address.'
            : request.kind === 'plan'
              ? 'until then the lower caps hold.'
              : "until then the app's withdrawals wait.",
          '',
          'If neither you nor your team made this change, change it back in the portal and tell',
          "the gateway's operator now: the hold is the time there is to stop it.",
        ].join('\n'),
      );
    }
    return { state: 'registered', heldUntil };
  }

  /** Into the store; when it is in effect (or its hold ends), and whether it changed anything. */
  private take(request: Registered, now: number): { until: number | null; changed: boolean } {
    const holdMs = this.deps.settings.signerHoldHours * 3_600_000;
    if (request.kind === 'plan') {
      const { effectiveAt, changed } = this.deps.store.registerPlan(
        {
          appId: request.appId,
          packageId: request.packageId,
          endsAt: request.until === null ? null : Date.parse(request.until),
          webAt: request.at,
        },
        now,
        holdMs,
        planRank,
      );
      return { until: effectiveAt, changed };
    }
    if (request.kind === 'payout') {
      const { effectiveAt, changed } = this.deps.store.registerPayout(
        { ...request, webAt: request.at },
        now,
        holdMs,
      );
      return { until: effectiveAt, changed };
    }
    const { heldUntil, changed } = this.deps.store.registerWhitelist(
      { appId: request.appId, hash: request.whitelistHash, webAt: request.at },
      now,
      holdMs,
    );
    return { until: heldUntil, changed };
  }
}
