// The portal's accounts: users and their sessions, sign-in steps and codes, brute-force
// windows, profile files and KYC documents, security events.

import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { components } from '../../generated/portal.gen';
import type { Flag } from './columns';

export type AuthType = 'mpin' | 'authenticator' | 'otp';
export type Gender = 'male' | 'female' | 'others';
/** 0 not uploaded, 1 approved, 2 rejected, 3 unverified. */
export type KycStatus = 0 | 1 | 2 | 3;

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  name: string;
  password_hash: string;
  pin_hash: string;
  auth_type: ColumnType<AuthType, AuthType | undefined, AuthType>;
  /** Referrer's user id (registration's optional sponsor username, resolved). */
  sponsor_id: string | null;
  gender: Gender | null;
  dob: string | null;
  phone: string | null;
  country: string | null;
  landmark: string | null;
  city: string | null;
  state: string | null;
  pincode: string | null;
  address_line1: string | null;
  address_line2: string | null;
  avatar: string | null;
  status_kyc: ColumnType<KycStatus, KycStatus | undefined, KycStatus>;
  is_profile_complete: ColumnType<Flag, Flag | undefined, Flag>;
  created_at: string;
  last_login_at: string | null;
  previous_login_at: string | null;
  /** Consecutive failed sign-in steps; reset on success. */
  failed_logins: ColumnType<number, number | undefined, number>;
  /** Sign-in refused until this time after repeated failures. */
  locked_until: string | null;
  /** TOTP secret, encrypted with the server key (domain/account/totp.ts). */
  totp_secret_enc: string | null;
  totp_enabled: ColumnType<Flag, Flag | undefined, Flag>;
  /** Last TOTP time step accepted, so a code cannot be replayed. */
  totp_last_step: number | null;
  /** BIP32 child index and the BEP20 deposit address derived from it. */
  deposit_index: number | null;
  deposit_address: string | null;
  /** Last block scanned for deposits to deposit_address with enough confirmations. */
  deposit_scanned_block: number | null;
}

export interface SessionsTable {
  id: string;
  /** sha256 hex of the opaque bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface CountriesTable {
  /** ISO 3166-1 alpha-2. */
  id: string;
  name: string;
  calling_code: string;
}

export interface DocumentTypesTable {
  id: string;
  /** Section title, e.g. 'Identity Proof'. */
  document_type: string;
  /** JSON array of the allowed document names, e.g. ["Aadhar Card","Passport"]. */
  document_names: string;
  front_required: Flag;
  back_required: Flag;
  number_required: Flag;
  sort_order: number;
}

export interface SpentStepTokensTable {
  id: string;
  spent_at: string;
}

export interface OtpCodesTable {
  id: string;
  user_id: string;
  /** e.g. 'login', 'auth-switch', 'password-reset' (domain/account/recovery.ts: 8 digits, 15 minutes). */
  purpose: string;
  code_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export type FileKind = 'avatar' | 'kyc' | 'app_logo';

export interface FilesTable {
  /** Random 128-bit hex name plus extension; the only name on disk. */
  name: string;
  user_id: string;
  kind: FileKind;
  mime: string;
  size: number;
  created_at: string;
}

/** 0 pending, 1 approved, 2 rejected. */
export type UploadStatus = 0 | 1 | 2;

export interface KycUploadsTable {
  id: string;
  user_id: string;
  document_type_id: string;
  document_name: string;
  document_number: string | null;
  front: string | null;
  back: string | null;
  status: ColumnType<UploadStatus, UploadStatus | undefined, UploadStatus>;
  remarks: string | null;
  created_at: string;
  reviewed_at: string | null;
}

/** Which brute-force window a failure counts in (domain/account/lockout.ts). */
export type FailureScope =
  | 'login-account'
  | 'login-ip'
  | 'code-check'
  | 'code-send'
  // Password recovery (domain/account/recovery.ts): requests per name and per IP, mails per account,
  // failed resets.
  | 'recovery-name'
  | 'recovery-ip'
  | 'recovery-mail'
  | 'recovery-check';

/** One failed step inside a sliding window; pruned once it leaves the window. */
export interface LoginFailuresTable {
  scope: FailureScope;
  /**
   * Per scope: `u:<userId>|<address>` or `n:<name>|<address>` (login-account), the address
   * (login-ip), or the user id. An address is domain/clientAddress.ts brakeAddress's form.
   */
  key: string;
  /**
   * ms since the epoch (not ISO text: the window arithmetic and pruning compare numbers). A
   * PostgreSQL dialect must have its driver parse bigint as a number (pg returns text).
   */
  at: number;
  /** Set on a failure reserved before the check, so that a step that succeeds can give it back. */
  id: string | null;
}

/** A name that matches no account: its lock behaves like users.failed_logins / locked_until. */
export interface LoginUnknownNamesTable {
  /** Trimmed, lower-case. */
  name: string;
  failed_logins: number;
  /** ms since the epoch. */
  locked_until: number | null;
  /** ms since the epoch; rows idle for long are pruned. */
  last_failure_at: number;
}

/** One security event of an account, a bell entry (domain/account/events.ts). */
export interface AccountEventsTable {
  id: string;
  user_id: string;
  kind: components['schemas']['AccountEventKind'];
  created_at: string;
  /** When Read All marked it read; null while unread. */
  read_at: string | null;
  /** The session a sign-in opened (null for other kinds). */
  session_id: string | null;
  ip: string | null;
  user_agent: string | null;
  /** The kind's details, JSON text (names, counts, the lock's end). */
  details: string;
}

/** An archive of the whole account (domain/account/archives.ts). */
export interface AccountArchivesTable {
  id: string;
  user_id: string;
  state: 'preparing' | 'ready' | 'failed';
  /** The archive's name in the storage directory, once written. */
  file: string | null;
  created_at: string;
  ready_at: string | null;
  /** When its download stops working: a day after ready_at. */
  expires_at: string | null;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type DocumentType = Selectable<DocumentTypesTable>;
