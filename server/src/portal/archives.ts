import {
  ARCHIVE_MESSAGES,
  createArchiveLink,
  openArchiveLink,
  requestArchive,
} from '../domain/account/archives';
import { requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from '../http/operationTypes';

// Operations tagged Archives in openapi.yaml: the settings panel's Download of the whole account.
export const archivesHandlers: HandlerModule = (ctx) => ({
  async requestAccountArchive(request, reply) {
    const user = requireUser(request);
    const archive = await requestArchive(ctx.db, user.id, ctx.clock());
    void reply.code(202);
    return {
      status: true,
      msg: ARCHIVE_MESSAGES.preparing,
      data: archive,
    } satisfies Reply<'requestAccountArchive'>;
  },

  async createArchiveLink(request) {
    const user = requireUser(request);
    const link = await createArchiveLink(
      ctx.db,
      ctx.config.secretKey,
      user.id,
      request.params.id,
      ctx.clock(),
    );
    return {
      status: true,
      data: { url: link.url, expires_at: link.expiresAt },
    } satisfies Reply<'createArchiveLink'>;
  },

  async downloadAccountArchive(request, reply) {
    const { stream, fileName } = await openArchiveLink(
      ctx.db,
      ctx.files,
      ctx.config.secretKey,
      request.query.token,
      ctx.clock(),
    );
    void reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${fileName}"`);
    return stream satisfies Reply<'downloadAccountArchive'>;
  },
});
