import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { OperationInfo } from '../openapi/spec';
import { HttpError, MSG, validationFailed } from './errors';

export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024; // spec: 2097152 bytes per image
const MAX_FILES = 4;

/** Whether an operation's body may be multipart (the routes registerMultipart must serve). */
export function takesUploads(operation: OperationInfo): boolean {
  return operation.requestContentTypes.includes('multipart/form-data');
}

const seenFileFields = new WeakMap<FastifyRequest, Set<string>>();

/**
 * Multipart bodies are buffered and attached as plain key/values (text -> string, file ->
 * Buffer), so glue's body schema validates them like JSON; `format: binary` parts are matched
 * by the `isFile` keyword (openapi/spec.ts). Oversized files -> 413, a second file for the same
 * field -> 422.
 */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    throwFileSizeLimit: true,
    limits: {
      fileSize: MAX_UPLOAD_BYTES,
      files: MAX_FILES,
      fields: 50,
      fieldSize: 64 * 1024,
      parts: 60,
    },
    async onFile(this: FastifyRequest, part: MultipartFile) {
      const seen = seenFileFields.get(this) ?? new Set<string>();
      seenFileFields.set(this, seen);
      if (seen.has(part.fieldname)) {
        part.file.resume(); // drain so the parser can finish
        throw validationFailed({ [part.fieldname]: ['Only one file is allowed.'] });
      }
      seen.add(part.fieldname);
      try {
        await part.toBuffer();
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'FST_REQ_FILE_TOO_LARGE') throw err;
        const msg = MSG.fileTooLargeFor(part.fieldname);
        throw new HttpError(413, msg, { [part.fieldname]: [msg] });
      }
    },
  });
}
