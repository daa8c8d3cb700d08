import type { FastifyRequest } from 'fastify';
import {
  KYC_MSG,
  findDocumentType,
  listDocumentTypes,
  recomputeKycStatus,
  sectionAcceptsUpload,
  uploadRuleErrors,
} from '../domain/kyc';
import { checkImages, recordImage, removeImages, writeImage } from '../domain/uploads';
import { conflict, validationFailed } from '../http/errors';
import { requireUser } from '../http/requestContext';
import { newId } from '../domain/ids';
import type { HandlerModule } from './types';

/** Multipart fields as @fastify/multipart hands them over (files as Buffers). */
interface UploadKycBody {
  document_type: string;
  document_name: string;
  document_number?: string;
  front?: Buffer;
  back?: Buffer;
}

// Operations tagged Kyc in openapi.yaml, keyed by operationId.
export const kycHandlers: HandlerModule = (ctx) => ({
  async listDocTypes(request) {
    const user = requireUser(request);
    return { status: true, data: await listDocumentTypes(ctx.db, user.id) };
  },

  async uploadKyc(request: FastifyRequest<{ Body: UploadKycBody }>) {
    const user = requireUser(request);
    const body = request.body;
    const type = await findDocumentType(ctx.db, body.document_type);
    if (!type) throw validationFailed({ document_type: [KYC_MSG.typeInvalid] });
    if (!(await sectionAcceptsUpload(ctx.db, user.id, type.id))) {
      throw conflict(KYC_MSG.alreadyUploaded);
    }
    const { images, errors: imageErrors } = await checkImages({
      front: body.front,
      back: body.back,
    });
    const errors = {
      ...uploadRuleErrors(type, {
        document_name: body.document_name,
        document_number: body.document_number,
        hasFront: body.front !== undefined,
        hasBack: body.back !== undefined,
      }),
      ...imageErrors,
    };
    if (Object.keys(errors).length > 0) throw validationFailed(errors);

    const now = ctx.clock().toISOString();
    const written: Partial<Record<'front' | 'back', string>> = {};
    try {
      for (const side of ['front', 'back'] as const) {
        const image = images[side];
        if (image) written[side] = await writeImage(ctx.config.dataDir, image);
      }
      await ctx.db.transaction().execute(async (trx) => {
        // Checked again inside the transaction: two uploads racing for one section.
        if (!(await sectionAcceptsUpload(trx, user.id, type.id))) {
          throw conflict(KYC_MSG.alreadyUploaded);
        }
        for (const side of ['front', 'back'] as const) {
          const name = written[side];
          const checked = images[side];
          if (name && checked) {
            await recordImage(trx, { name, userId: user.id, kind: 'kyc', checked, createdAt: now });
          }
        }
        await trx
          .insertInto('kyc_uploads')
          .values({
            id: newId('upl'),
            user_id: user.id,
            document_type_id: type.id,
            document_name: body.document_name.trim(),
            document_number:
              type.number_required === 1 ? (body.document_number ?? '').trim() : null,
            front: written.front ?? null,
            back: written.back ?? null,
            status: 0,
            remarks: null,
            created_at: now,
            reviewed_at: null,
          })
          .execute();
        await recomputeKycStatus(trx, user.id);
      });
    } catch (error) {
      await removeImages(ctx.config.dataDir, Object.values(written));
      throw error;
    }
    return { status: true, msg: KYC_MSG.uploaded };
  },
});
