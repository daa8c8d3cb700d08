import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connection';
import { ownedApp } from '../apps/apps';
import { fieldInvalid, ForbiddenError } from '../errors';
import { planExport, type ExportPlan } from './stream';
import { codedMessages } from '../messageCodes';

// A download link of an export: the portal's session is a bearer token, which a browser's
// download cannot send, so a request with the session checks what is asked and answers a link
// whose token says it, HMAC-SHA256-signed under a key derived from SECRET_KEY, for a minute.
// Stateless, as the sign-in's step token: nothing is stored, and any process can serve it.

export const EXPORT_LINK_SECONDS = 60;
const PREFIX = 'exp_';

export const EXPORT_LINK_MESSAGES = codedMessages('exportLink', {
  expired: 'This download link has expired: download the list again.',
  invalid: 'This download link is not valid: download the list again.',
  appRequired: 'Say which app the list is of.',
  noApp: "This list is the account's own: it takes no app.",
} as const);

/** What a link downloads, and for whom. */
interface LinkClaims {
  sub: string;
  kind: string;
  app: string | null;
  from?: string;
  to?: string;
  v: number;
  bom: boolean;
  exp: number;
  status?: string;
  order?: string;
}

function sign(secret: string, payload: string): string {
  const key = createHmac('sha256', secret).update('export-link:v1').digest();
  return createHmac('sha256', key).update(payload).digest('base64url');
}

export interface ExportRequest {
  kind: string;
  appId?: string;
  from?: string;
  to?: string;
  version?: number;
  bom?: boolean;
  status?: string;
  orderId?: string;
}

/** A signed link for `userId`, after checking the kind, the app (the account's) and the range. */
export async function createExportLink(
  db: Db,
  secret: string,
  userId: string,
  asked: ExportRequest,
  now: Date,
): Promise<{ url: string; expiresAt: string }> {
  const plan = planExport(asked);
  if (plan.kind.owner === 'app') {
    if (asked.appId === undefined) throw fieldInvalid('app_id', EXPORT_LINK_MESSAGES.appRequired);
    await ownedApp(db, userId, asked.appId);
  } else if (asked.appId !== undefined) {
    throw fieldInvalid('app_id', EXPORT_LINK_MESSAGES.noApp);
  }
  const exp = Math.floor(now.getTime() / 1000) + EXPORT_LINK_SECONDS;
  const claims: LinkClaims = {
    sub: userId,
    kind: plan.name,
    app: asked.appId ?? null,
    ...plan.range,
    ...(plan.invoiceFilter.status === undefined ? {} : { status: plan.invoiceFilter.status }),
    ...(plan.invoiceFilter.orderId === undefined ? {} : { order: plan.invoiceFilter.orderId }),
    v: plan.version,
    bom: asked.bom ?? false,
    exp,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const token = `${PREFIX}${payload}.${sign(secret, payload)}`;
  return {
    url: `/api/cryptosafelock/exports/download?token=${token}`,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

/** What a link downloads, once its signature, its time and the app's owner are checked. */
export async function openExportLink(
  db: Db,
  secret: string,
  token: string,
  now: Date,
): Promise<{ plan: ExportPlan; ownerId: string; bom: boolean }> {
  const [payload = '', signature = ''] = token.slice(PREFIX.length).split('.');
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new ForbiddenError(EXPORT_LINK_MESSAGES.invalid);
  }
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
  if (Math.floor(now.getTime() / 1000) >= claims.exp) {
    throw new ForbiddenError(EXPORT_LINK_MESSAGES.expired);
  }
  const plan = planExport({
    kind: claims.kind,
    version: claims.v,
    from: claims.from,
    to: claims.to,
    status: claims.status,
    orderId: claims.order,
  });
  // The app may have changed hands or gone since the link was made.
  if (claims.app !== null) await ownedApp(db, claims.sub, claims.app);
  return { plan, ownerId: claims.app ?? claims.sub, bom: claims.bom };
}
