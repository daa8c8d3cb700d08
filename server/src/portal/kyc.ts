import { KYC_MSG, listDocumentTypes, uploadDocument } from '../domain/account/kyc';
import { requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from '../http/operationTypes';

// Operations tagged Kyc in openapi.yaml, keyed by operationId.
export const kycHandlers: HandlerModule = (ctx) => ({
  async listDocTypes(request) {
    const user = requireUser(request);
    const data = await listDocumentTypes(ctx.db, user.id);
    return { status: true, data } satisfies Reply<'listDocTypes'>;
  },

  async uploadKyc(request) {
    const user = requireUser(request);
    const now = ctx.clock().toISOString();
    await uploadDocument(ctx.db, ctx.files, user.id, request.body, now);
    return { status: true, msg: KYC_MSG.uploaded } satisfies Reply<'uploadKyc'>;
  },
});
