import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, DocumentType, KycStatus, UploadStatus } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import type { FileStore } from '../../storage/fileStore';
import { ConflictError, ForbiddenError, InvalidError, type FieldErrors } from '../errors';
import { newId } from '../ids';
import { checkImages, recordImage, removeImages, writeImage } from './uploads';
import {
  AADHAR_DIGITS_MAX,
  DOCUMENT_NUMBER_MAX,
  INDIA,
  KYC_MESSAGES,
} from '../../../../src/shared/kyc';
import { codedMessages } from '../messageCodes';

type Executor = Kysely<Database> | Transaction<Database>;
type Schemas = components['schemas'];

// Identity verification: the personal section, the document
// uploads and the account's status_kyc derived from both.

export const KYC_MSG = codedMessages('kyc', {
  locked: 'Your personal information is already verified and can no longer be changed.',
  nameRequired: KYC_MESSAGES.name,
  nameLetters: 'Name may only contain letters and spaces',
  dobPast: KYC_MESSAGES.dobPast,
  line1Required: KYC_MESSAGES.line1,
  line2Required: KYC_MESSAGES.line2,
  cityRequired: KYC_MESSAGES.city,
  stateRequired: KYC_MESSAGES.state,
  pincodeRequired: KYC_MESSAGES.pincode,
  pincodeIndia: KYC_MESSAGES.pincodeIndia,
  pincodeOther: KYC_MESSAGES.pincodeOther,
  alreadyUploaded: KYC_MESSAGES.alreadyUploaded,
  typeInvalid: 'The selected document type is invalid.',
  nameInvalid: 'The selected document name is invalid.',
  documentNameRequired: KYC_MESSAGES.documentName,
  numberRequired: KYC_MESSAGES.documentNumber,
  numberTooLong: 'Document Number may not be greater than 20 characters',
  aadharDigits: KYC_MESSAGES.aadharDigits,
  frontRequired: KYC_MESSAGES.front,
  photoRequired: KYC_MESSAGES.photo,
  backRequired: KYC_MESSAGES.back,
  uploaded: 'Document uploaded successfully',
} as const);

// ------------------------------------------------------------------------- personal section

type PersonalInfo = Schemas['UpdateProfileRequest'];

/** The fields update-profile writes, trimmed; landmark '' clears it. */
function normalizePersonalInfo(input: PersonalInfo) {
  return {
    name: input.name.trim().replace(/\s+/g, ' '),
    gender: input.gender,
    dob: input.dob,
    address_line1: input.address_line1.trim(),
    address_line2: input.address_line2.trim(),
    city: input.city.trim(),
    state: input.state.trim(),
    pincode: input.pincode.trim(),
    landmark: input.landmark?.trim() || null,
  };
}

/** The spec's rules beyond the schema: letters-only name, a past birth date, pincode by country. */
export function personalInfoErrors(
  info: ReturnType<typeof normalizePersonalInfo>,
  countryId: string | null,
  today: string,
): FieldErrors {
  const errors: FieldErrors = {};
  const need = (field: keyof typeof info, message: string) => {
    if (!info[field]) errors[field] = [message];
  };
  need('name', KYC_MSG.nameRequired);
  if (info.name && !/^[A-Za-z ]+$/.test(info.name)) errors.name = [KYC_MSG.nameLetters];
  // gender and dob are checked by the schema (enum, date); only the date's range is left.
  if (info.dob >= today) errors.dob = [KYC_MSG.dobPast];
  need('address_line1', KYC_MSG.line1Required);
  need('address_line2', KYC_MSG.line2Required);
  need('city', KYC_MSG.cityRequired);
  need('state', KYC_MSG.stateRequired);
  need('pincode', KYC_MSG.pincodeRequired);
  const pincodeError = pincodeRule(info.pincode, countryId);
  if (info.pincode && pincodeError) errors.pincode = [pincodeError];
  return errors;
}

/** Digits and + only; 6 long for India, otherwise 4 to 7. */
export function pincodeRule(pincode: string, countryId: string | null): string | null {
  if (countryId === INDIA) return /^[0-9+]{6}$/.test(pincode) ? null : KYC_MSG.pincodeIndia;
  return /^[0-9+]{4,7}$/.test(pincode) ? null : KYC_MSG.pincodeOther;
}

/**
 * Saves the personal section of a profile that is not approved yet (approval locks it), checked
 * against the account's country on `today` (YYYY-MM-DD).
 */
export async function savePersonalInfo(
  db: Executor,
  user: { id: string; country: string | null; is_profile_complete: 0 | 1 },
  input: PersonalInfo,
  today: string,
): Promise<void> {
  if (user.is_profile_complete === 1) throw new ForbiddenError(KYC_MSG.locked);
  const info = normalizePersonalInfo(input);
  const errors = personalInfoErrors(info, user.country, today);
  if (Object.keys(errors).length > 0) throw new InvalidError(undefined, errors);
  const result = await db
    .updateTable('users')
    .set(info)
    .where('id', '=', user.id)
    .where('is_profile_complete', '=', 0) // an approval may have landed meanwhile
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new ForbiddenError(KYC_MSG.locked);
}

// ------------------------------------------------------------------------- document types

export function documentNames(type: Pick<DocumentType, 'document_names'>): string[] {
  const parsed: unknown = JSON.parse(type.document_names);
  return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : [];
}

/** Every section in display order, each with this account's uploads newest first. */
export async function listDocumentTypes(
  db: Executor,
  userId: string,
): Promise<Schemas['DocumentType'][]> {
  const [types, uploads] = await Promise.all([
    db.selectFrom('document_types').selectAll().orderBy('sort_order').orderBy('id').execute(),
    db
      .selectFrom('kyc_uploads')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  return types.map((type) => ({
    id: type.id,
    document_type: type.document_type,
    data: documentNames(type),
    front_required: type.front_required,
    back_required: type.back_required,
    uploads: {
      data: uploads
        .filter((u) => u.document_type_id === type.id)
        .map((u): Schemas['Upload'] => ({
          id: u.id,
          document_name: u.document_name,
          document_number: u.document_number,
          front: u.front,
          back: u.back,
          status: u.status,
          remarks: u.remarks,
          created_at: u.created_at,
        })),
    },
  }));
}

/** The type a lower-cased `document_type` names (the client sends it lower-cased). */
async function findDocumentType(db: Executor, documentType: string) {
  return db
    .selectFrom('document_types')
    .selectAll()
    .where(sql<string>`lower(document_type)`, '=', documentType.trim().toLowerCase())
    .executeTakeFirst();
}

/** The photo section is told apart by its name, as the client does (it has no number rule). */
export function isPhotoType(type: Pick<DocumentType, 'document_type'>): boolean {
  return type.document_type.trim().toLowerCase() === 'photo';
}

export function isAadhar(documentName: string): boolean {
  return /aadha?r/i.test(documentName);
}

interface UploadInput {
  document_name: string;
  document_number?: string;
  hasFront: boolean;
  hasBack: boolean;
}

/** The field rules for one document of `type`: which sides and number it needs, and how long. */
function uploadRuleErrors(type: DocumentType, input: UploadInput): FieldErrors {
  const errors: FieldErrors = {};
  const name = input.document_name.trim();
  if (!name) errors.document_name = [KYC_MSG.documentNameRequired];
  else if (!documentNames(type).includes(name)) errors.document_name = [KYC_MSG.nameInvalid];
  if (type.number_required === 1) {
    const number = (input.document_number ?? '').trim();
    if (!number) errors.document_number = [KYC_MSG.numberRequired];
    else if (number.length > DOCUMENT_NUMBER_MAX) errors.document_number = [KYC_MSG.numberTooLong];
    else if (isAadhar(name) && !new RegExp(`^\\d{1,${AADHAR_DIGITS_MAX}}$`).test(number)) {
      errors.document_number = [KYC_MSG.aadharDigits];
    }
  }
  if (type.front_required === 1 && !input.hasFront) {
    errors.front = [isPhotoType(type) ? KYC_MSG.photoRequired : KYC_MSG.frontRequired];
  }
  if (type.back_required === 1 && !input.hasBack) errors.back = [KYC_MSG.backRequired];
  return errors;
}

/** A section takes a new upload only when it has none or its latest one was rejected. */
async function sectionAcceptsUpload(
  db: Executor,
  userId: string,
  documentTypeId: string,
): Promise<boolean> {
  const latest = await db
    .selectFrom('kyc_uploads')
    .select('status')
    .where('user_id', '=', userId)
    .where('document_type_id', '=', documentTypeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return !latest || latest.status === 2;
}

/**
 * Stores one document of a section that takes an upload: its rules and the images' contents are
 * checked first, the scans are written under fresh names (removed again if the upload fails).
 */
export async function uploadDocument(
  db: Kysely<Database>,
  files: FileStore,
  userId: string,
  input: Schemas['UploadKycRequest'],
  nowIso: string,
): Promise<void> {
  const type = await findDocumentType(db, input.document_type);
  if (!type) throw new InvalidError(undefined, { document_type: [KYC_MSG.typeInvalid] });
  if (!(await sectionAcceptsUpload(db, userId, type.id))) {
    throw new ConflictError(KYC_MSG.alreadyUploaded);
  }
  const { images, errors: imageErrors } = await checkImages({
    front: input.front,
    back: input.back,
  });
  const errors = {
    ...uploadRuleErrors(type, {
      document_name: input.document_name,
      document_number: input.document_number,
      hasFront: input.front !== undefined,
      hasBack: input.back !== undefined,
    }),
    ...imageErrors,
  };
  if (Object.keys(errors).length > 0) throw new InvalidError(undefined, errors);

  const written: Partial<Record<'front' | 'back', string>> = {};
  try {
    for (const side of ['front', 'back'] as const) {
      const image = images[side];
      if (image) written[side] = await writeImage(files, image);
    }
    await db.transaction().execute(async (trx) => {
      // Checked again inside the transaction: two uploads racing for one section.
      if (!(await sectionAcceptsUpload(trx, userId, type.id))) {
        throw new ConflictError(KYC_MSG.alreadyUploaded);
      }
      for (const side of ['front', 'back'] as const) {
        const name = written[side];
        const checked = images[side];
        if (name && checked) {
          await recordImage(trx, { name, userId, kind: 'kyc', checked, createdAt: nowIso });
        }
      }
      await trx
        .insertInto('kyc_uploads')
        .values({
          id: newId('upl'),
          user_id: userId,
          document_type_id: type.id,
          document_name: input.document_name.trim(),
          document_number: type.number_required === 1 ? (input.document_number ?? '').trim() : null,
          front: written.front ?? null,
          back: written.back ?? null,
          status: 0,
          remarks: null,
          created_at: nowIso,
          reviewed_at: null,
        })
        .execute();
      await recomputeKycStatus(trx, userId);
    });
  } catch (error) {
    await removeImages(files, Object.values(written));
    throw error;
  }
}

// ------------------------------------------------------------------------- status_kyc

interface UploadState {
  status: UploadStatus;
  reviewed_at: string | null;
}

/**
 * 0 nothing uploaded; 1 personal information approved and a document approved; 3 something
 * awaiting review (a pending document, or approved documents waiting for the personal section);
 * 2 the latest review rejected and no document approved.
 */
export function kycStatusOf(profileApproved: boolean, uploads: readonly UploadState[]): KycStatus {
  if (uploads.length === 0) return 0;
  const approved = uploads.some((u) => u.status === 1);
  if (profileApproved && approved) return 1;
  if (uploads.some((u) => u.status === 0)) return 3;
  const lastReviewed = uploads
    .filter((u) => u.reviewed_at !== null)
    .reduce<UploadState | null>(
      (last, u) => (!last || (u.reviewed_at ?? '') > (last.reviewed_at ?? '') ? u : last),
      null,
    );
  if (lastReviewed?.status === 2 && !approved) return 2;
  return 3;
}

export async function recomputeKycStatus(db: Executor, userId: string): Promise<KycStatus> {
  const [user, uploads] = await Promise.all([
    db
      .selectFrom('users')
      .select('is_profile_complete')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('kyc_uploads')
      .select(['status', 'reviewed_at'])
      .where('user_id', '=', userId)
      .execute(),
  ]);
  const status = kycStatusOf(user.is_profile_complete === 1, uploads);
  await db.updateTable('users').set({ status_kyc: status }).where('id', '=', userId).execute();
  return status;
}

// ------------------------------------------------------------------------- review (operator)

/** A review the operator asked for that the current state refuses. */
export class KycReviewError extends Error {}

const STATUS_WORD: Record<UploadStatus, string> = { 0: 'pending', 1: 'approved', 2: 'rejected' };

export function uploadStatusWord(status: UploadStatus): string {
  return STATUS_WORD[status];
}

const KYC_STATUS_WORD: Record<KycStatus, string> = {
  0: 'not uploaded',
  1: 'approved',
  2: 'rejected',
  3: 'unverified',
};

export function kycStatusWord(status: KycStatus): string {
  return KYC_STATUS_WORD[status];
}

export async function reviewUpload(
  db: Kysely<Database>,
  uploadId: string,
  decision: { status: 1 } | { status: 2; remarks: string },
  nowIso: string,
): Promise<{ username: string; statusKyc: KycStatus }> {
  return db.transaction().execute(async (trx) => {
    const upload = await trx
      .selectFrom('kyc_uploads')
      .innerJoin('users', 'users.id', 'kyc_uploads.user_id')
      .select(['kyc_uploads.id', 'kyc_uploads.status', 'kyc_uploads.user_id', 'users.username'])
      .where('kyc_uploads.id', '=', uploadId)
      .executeTakeFirst();
    if (!upload) throw new KycReviewError(`No upload with id ${uploadId}.`);
    if (upload.status !== 0) {
      throw new KycReviewError(`Upload ${uploadId} is already ${uploadStatusWord(upload.status)}.`);
    }
    await trx
      .updateTable('kyc_uploads')
      .set({
        status: decision.status,
        remarks: decision.status === 2 ? decision.remarks : null,
        reviewed_at: nowIso,
      })
      .where('id', '=', uploadId)
      .execute();
    const statusKyc = await recomputeKycStatus(trx, upload.user_id);
    return { username: upload.username, statusKyc };
  });
}

const PERSONAL_FIELDS = [
  'name',
  'gender',
  'dob',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'pincode',
] as const;

/** Approves and locks the personal section; it must have been filled in first. */
export async function approveProfile(
  db: Kysely<Database>,
  username: string,
): Promise<{ statusKyc: KycStatus }> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'is_profile_complete', ...PERSONAL_FIELDS])
      .where(sql<string>`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst();
    if (!user) throw new KycReviewError(`No account with username ${username}.`);
    if (user.is_profile_complete === 1) {
      throw new KycReviewError(`The personal information of ${username} is already approved.`);
    }
    const missing = PERSONAL_FIELDS.filter((field) => !user[field]);
    if (missing.length > 0) {
      throw new KycReviewError(
        `The personal information of ${username} is not filled in yet (${missing.join(', ')}).`,
      );
    }
    await trx
      .updateTable('users')
      .set({ is_profile_complete: 1 })
      .where('id', '=', user.id)
      .execute();
    return { statusKyc: await recomputeKycStatus(trx, user.id) };
  });
}
