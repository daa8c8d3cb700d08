import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { ExportPlan } from '../domain/exports/stream';

/**
 * An export's CSV as the answer, streamed as its chunks are read: the type, the file name the
 * browser saves it under and the version of its columns in the headers, before the first row.
 */
export function csvAnswer(
  reply: FastifyReply,
  plan: ExportPlan,
  text: AsyncIterable<string>,
): NodeJS.ReadableStream {
  void reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${plan.name}-v${plan.version}.csv"`)
    .header('export-version', String(plan.version));
  return Readable.from(text);
}
