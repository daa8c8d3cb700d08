import type { Db } from '../db/connection';
import type { KycStatus } from '../db/schema';
import {
  approveProfile,
  kycStatusWord,
  KycReviewError,
  reviewUpload,
  uploadStatusWord,
} from '../domain/account/kyc';
import {
  printTable,
  singleArgument,
  UsageError,
  type AdminCommand,
  type CommandIo,
} from './command';

// The operator's side of identity verification: review the uploads and the personal section
// on the same database the server uses. Refusals (unknown id, already reviewed) exit with 1.

const kycList: AdminCommand = {
  name: 'kyc list',
  usage: 'kyc list',
  description:
    'List KYC uploads (pending first) and accounts whose personal section awaits approval.',
  async run(args, { db }, io) {
    if (args.length > 0) throw new UsageError('kyc list takes no arguments.');
    const uploads = await db
      .selectFrom('kyc_uploads')
      .innerJoin('users', 'users.id', 'kyc_uploads.user_id')
      .innerJoin('document_types', 'document_types.id', 'kyc_uploads.document_type_id')
      .select([
        'kyc_uploads.id',
        'users.username',
        'document_types.document_type',
        'kyc_uploads.document_name',
        'kyc_uploads.document_number',
        'kyc_uploads.status',
        'kyc_uploads.created_at',
        'kyc_uploads.remarks',
      ])
      .orderBy('kyc_uploads.status')
      .orderBy('kyc_uploads.created_at', 'desc')
      .execute();
    io.out('Uploads:');
    printTable(
      io,
      uploads.map((u) => ({
        id: u.id,
        username: u.username,
        type: u.document_type,
        document: u.document_name,
        number: u.document_number ?? '-',
        status: uploadStatusWord(u.status),
        uploaded: u.created_at,
        remarks: u.remarks ?? '',
      })),
    );

    const profiles = await db
      .selectFrom('users')
      .select(['username', 'name', 'city', 'country'])
      .where('is_profile_complete', '=', 0)
      .where('address_line1', 'is not', null)
      .orderBy('username')
      .execute();
    io.out('');
    io.out('Personal information awaiting approval (kyc approve-profile <username>):');
    printTable(
      io,
      profiles.map((p) => ({
        username: p.username,
        name: p.name,
        city: p.city ?? '',
        country: p.country ?? '',
      })),
    );
    return 0;
  },
};

function report(io: CommandIo, username: string, status: KycStatus) {
  io.out(`status_kyc of ${username} is now ${status} (${kycStatusWord(status)}).`);
}

async function refusalToExitCode(io: CommandIo, work: () => Promise<void>) {
  try {
    await work();
    return 0;
  } catch (error) {
    if (!(error instanceof KycReviewError)) throw error;
    io.out(error.message);
    return 1;
  }
}

/** Reviews one upload and says what became of it and of the account's KYC status. */
function decide(
  db: Db,
  io: CommandIo,
  uploadId: string,
  decision: Parameters<typeof reviewUpload>[2],
  outcome: string,
) {
  return refusalToExitCode(io, async () => {
    const result = await reviewUpload(db, uploadId, decision, new Date().toISOString());
    io.out(`Upload ${uploadId} of ${result.username} is ${outcome}`);
    report(io, result.username, result.statusKyc);
  });
}

const kycApprove: AdminCommand = {
  name: 'kyc approve',
  usage: 'kyc approve <upload-id>',
  description: 'Approve a pending KYC upload.',
  async run(args, { db }, io) {
    const uploadId = singleArgument(args);
    return decide(db, io, uploadId, { status: 1 }, 'approved.');
  },
};

const kycReject: AdminCommand = {
  name: 'kyc reject',
  usage: 'kyc reject <upload-id> <remarks>',
  description: 'Reject a pending KYC upload; the remarks are shown to the user.',
  async run(args, { db }, io) {
    const [uploadId, ...words] = args;
    const remarks = words.join(' ').trim();
    if (!uploadId || !remarks) throw new UsageError('An upload id and remarks are required.');
    return decide(db, io, uploadId, { status: 2, remarks }, `rejected: ${remarks}`);
  },
};

const kycApproveProfile: AdminCommand = {
  name: 'kyc approve-profile',
  usage: 'kyc approve-profile <username>',
  description: "Approve a user's personal information (locks the section).",
  async run(args, { db }, io) {
    const username = singleArgument(args);
    return refusalToExitCode(io, async () => {
      const result = await approveProfile(db, username);
      io.out(`The personal information of ${username} is approved and locked.`);
      report(io, username, result.statusKyc);
    });
  },
};

export const kycCommands: AdminCommand[] = [kycList, kycApprove, kycReject, kycApproveProfile];
