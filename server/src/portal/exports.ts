import { createExportLink, openExportLink } from '../domain/exports/links';
import { exportCsv } from '../domain/exports/stream';
import { csvAnswer } from '../http/csvDownload';
import { requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from '../http/operationTypes';

// Operations tagged Exports in openapi.yaml: every list's Download CSV.
export const exportsHandlers: HandlerModule = (ctx) => ({
  async createExportLink(request) {
    const user = requireUser(request);
    const { body } = request;
    const link = await createExportLink(
      ctx.db,
      ctx.config.secretKey,
      user.id,
      {
        kind: request.params.kind,
        appId: body.app_id,
        from: body.from,
        to: body.to,
        version: body.version,
        bom: body.bom,
        status: body.status,
        orderId: body.order_id,
      },
      ctx.clock(),
    );
    return {
      status: true,
      data: { url: link.url, expires_at: link.expiresAt },
    } satisfies Reply<'createExportLink'>;
  },

  async downloadExport(request, reply) {
    const { plan, ownerId, bom } = await openExportLink(
      ctx.db,
      ctx.config.secretKey,
      request.query.token,
      ctx.clock(),
    );
    const text = exportCsv(
      { db: ctx.db, ownerId, feeLeg: ctx.config.signer.feeAddress !== undefined },
      plan,
      { bom },
    );
    return csvAnswer(reply, plan, text) satisfies Reply<'downloadExport'>;
  },
});
