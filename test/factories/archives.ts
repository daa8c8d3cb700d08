import type {
  AccountArchiveResponse,
  ExportLinkResponse,
} from '../../src/api/generated/archives.gen';
import type { Fixtures } from './types';

export const ARCHIVE_ID = 'arc_0j5k2m8n3p4q6r7s8t9v0w1x2y';

/** requestAccountArchive's 202: the archive under way. */
export function makeArchiveRequested(id = ARCHIVE_ID): AccountArchiveResponse {
  return {
    status: true,
    msg: 'Your archive is being prepared. It will appear in your notifications when it is ready.',
    data: {
      id,
      state: 'preparing',
      created_at: '2026-11-15T09:00:00.000Z',
      ready_at: null,
      expires_at: null,
    },
  };
}

/** createArchiveLink's answer: a signed link for a minute. */
export function makeArchiveLink(
  url = '/api/account/archives/download?token=arc_eyJzdWIiOiJ1c3JfMSJ9.c2ln',
): ExportLinkResponse {
  return { status: true, data: { url, expires_at: '2026-11-15T10:01:00.000Z' } };
}

// The 200 answers (requestAccountArchive's 202 is in test/msw/handlers).
export const fixtures = {
  createArchiveLink: makeArchiveLink(),
} satisfies Fixtures;
