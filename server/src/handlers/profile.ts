import { accountProfile } from '../domain/security';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import {
  KYC_MSG,
  normalizePersonalInfo,
  personalInfoErrors,
  type PersonalInfo,
} from '../domain/kyc';
import { checkImages, readImage, recordImage, removeImages, writeImage } from '../domain/uploads';
import { forbidden, notFound, validationFailed } from '../http/errors';
import { requireUser } from '../http/requestContext';
import { resolveOptionalUser } from '../http/security';
import { LOGOS_DIR } from '../paths';
import type { AppContext, HandlerModule } from './types';

export const PROFILE_MSG = {
  pictureUpdated: 'Profile picture updated successfully',
  profileUpdated: 'Profile updated successfully',
  scanOwnerOnly: 'This document is only shown to its owner.',
} as const;

/** The Profile of openapi.yaml (one serializer: domain/security.ts). */
const profileOf = (ctx: AppContext, user: User) =>
  accountProfile(ctx.db, ctx.config.secretKey, user);

const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

function sendImage(reply: FastifyReply, mime: string, bytes: Buffer, cacheControl: string) {
  return reply
    .type(mime)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', cacheControl)
    .send(bytes);
}

// Operations tagged Profile in openapi.yaml, keyed by operationId.
export const profileHandlers: HandlerModule = (ctx) => ({
  async getProfile(request) {
    return { status: true, profile: await profileOf(ctx, requireUser(request)) };
  },

  async changePicture(request: FastifyRequest<{ Body: { photo: Buffer } }>) {
    const user = requireUser(request);
    const { images, errors } = await checkImages({ photo: request.body.photo });
    const photo = images.photo;
    if (!photo) throw validationFailed(errors);
    const name = await writeImage(ctx.config.dataDir, photo);
    let previous: string | null;
    try {
      previous = await ctx.db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('users')
          .select('avatar')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
        await recordImage(trx, {
          name,
          userId: user.id,
          kind: 'avatar',
          checked: photo,
          createdAt: ctx.clock().toISOString(),
        });
        await trx.updateTable('users').set({ avatar: name }).where('id', '=', user.id).execute();
        if (current.avatar) {
          await trx
            .deleteFrom('files')
            .where('name', '=', current.avatar)
            .where('user_id', '=', user.id)
            .where('kind', '=', 'avatar')
            .execute();
        }
        return current.avatar;
      });
    } catch (error) {
      await removeImages(ctx.config.dataDir, [name]);
      throw error;
    }
    // The old picture goes once nothing points at it any more.
    if (previous) await removeImages(ctx.config.dataDir, [previous]);
    return { status: true, msg: PROFILE_MSG.pictureUpdated, avatar: name };
  },

  async updateProfile(request: FastifyRequest<{ Body: PersonalInfo }>) {
    const user = requireUser(request);
    if (user.is_profile_complete === 1) throw forbidden(KYC_MSG.locked);
    const info = normalizePersonalInfo(request.body);
    const today = ctx.clock().toISOString().slice(0, 10);
    const errors = personalInfoErrors(info, user.country, today);
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
    const result = await ctx.db
      .updateTable('users')
      .set(info)
      .where('id', '=', user.id)
      .where('is_profile_complete', '=', 0) // an approval may have landed meanwhile
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw forbidden(KYC_MSG.locked);
    const saved = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return { status: true, msg: PROFILE_MSG.profileUpdated, profile: await profileOf(ctx, saved) };
  },

  async getImage(request: FastifyRequest<{ Params: { file: string } }>, reply) {
    // A sent but dead session is a 401 even for public pictures (the contract's rule).
    const viewer = await resolveOptionalUser(ctx, request);
    const name = request.params.file;
    const file = await ctx.db
      .selectFrom('files')
      .select(['user_id', 'kind', 'mime'])
      .where('name', '=', name)
      .executeTakeFirst();
    if (file) {
      if (file.kind === 'kyc' && viewer?.id !== file.user_id) {
        throw forbidden(PROFILE_MSG.scanOwnerOnly);
      }
      const bytes = await readImage(ctx.config.dataDir, name);
      if (!bytes) throw notFound();
      // Names are random and never reused: an avatar can be cached for good, a scan never.
      const cache =
        file.kind === 'kyc' ? 'private, no-store' : 'public, max-age=31536000, immutable';
      return sendImage(reply, file.mime, bytes, cache);
    }
    const method = await ctx.db
      .selectFrom('payment_methods')
      .select('logo')
      .where('logo', '=', name)
      .executeTakeFirst();
    const mime = MIME_BY_EXT[name.split('.').pop() ?? ''];
    if (!method || !mime) throw notFound();
    const bytes = await readFile(path.join(LOGOS_DIR, path.basename(method.logo))).catch(
      () => null,
    );
    if (!bytes) throw notFound();
    return sendImage(reply, mime, bytes, 'public, max-age=86400');
  },
});
