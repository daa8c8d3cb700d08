import type { FastifyReply } from 'fastify';
import { savePersonalInfo } from '../domain/account/kyc';
import { changeAvatar, storedImage, type StoredImage } from '../domain/account/profile';
import { accountProfile, reloadUser } from '../domain/account/security';
import { forbidden, notFound } from '../http/errors';
import { requireUser } from '../http/requestContext';
import { resolveOptionalUser } from '../http/security';
import type { HandlerModule, Reply } from '../http/operationTypes';
import { codedMessages } from '../domain/messageCodes';

export const PROFILE_MSG = codedMessages('profile', {
  pictureUpdated: 'Profile picture updated successfully',
  profileUpdated: 'Profile updated successfully',
  scanOwnerOnly: 'This document is only shown to its owner.',
} as const);

// Names are random and never reused: an avatar or an app's logo can be cached for good, a scan
// never.
const CACHE_CONTROL: Record<Extract<StoredImage, { found: true }>['kind'], string> = {
  avatar: 'public, max-age=31536000, immutable',
  app_logo: 'public, max-age=31536000, immutable',
  kyc: 'private, no-store',
  logo: 'public, max-age=86400',
};

// Opened as a document, an image may load nothing and runs in a sandbox (no script, an opaque
// origin): whatever slipped into an old upload cannot act as the portal.
const IMAGE_CSP = "default-src 'none'; sandbox";

function imageHeaders(reply: FastifyReply, mime: string, cacheControl: string) {
  void reply
    .type(mime)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', cacheControl)
    .header('content-security-policy', IMAGE_CSP);
}

// Operations tagged Profile in openapi.yaml, keyed by operationId.
export const profileHandlers: HandlerModule = (ctx) => ({
  async getProfile(request) {
    const profile = await accountProfile(ctx.db, ctx.config.secretKey, requireUser(request));
    return { status: true, profile } satisfies Reply<'getProfile'>;
  },

  async changePicture(request) {
    const user = requireUser(request);
    const now = ctx.clock().toISOString();
    const avatar = await changeAvatar(ctx.db, ctx.files, user.id, request.body.photo, now);
    return {
      status: true,
      msg: PROFILE_MSG.pictureUpdated,
      avatar,
    } satisfies Reply<'changePicture'>;
  },

  async updateProfile(request) {
    const user = requireUser(request);
    const today = ctx.clock().toISOString().slice(0, 10);
    await savePersonalInfo(ctx.db, user, request.body, today);
    const saved = await reloadUser(ctx.db, user.id);
    return {
      status: true,
      msg: PROFILE_MSG.profileUpdated,
      profile: await accountProfile(ctx.db, ctx.config.secretKey, saved),
    } satisfies Reply<'updateProfile'>;
  },

  async getImage(request, reply) {
    // A sent but dead session is a 401 even for public pictures (the contract's rule).
    const viewer = await resolveOptionalUser(ctx, request);
    const image = await storedImage(ctx.db, ctx.files, request.params.file, viewer?.id ?? null);
    if (!image.found) {
      throw image.reason === 'ownerOnly' ? forbidden(PROFILE_MSG.scanOwnerOnly) : notFound();
    }
    imageHeaders(reply, image.mime, CACHE_CONTROL[image.kind]);
    return image.bytes satisfies Reply<'getImage'>;
  },
});
