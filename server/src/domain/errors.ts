// What a rule throws when it refuses. The domain knows nothing of HTTP: the error handler
// (http/errorHandler.ts) gives each kind its status, in one place.

/** Request field -> its messages. */
export type FieldErrors = Record<string, string[]>;

export type DomainErrorKind =
  'notFound' | 'forbidden' | 'conflict' | 'gone' | 'invalid' | 'unavailable';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  readonly errors: FieldErrors;

  constructor(message: string, errors: FieldErrors = {}) {
    super(message);
    this.name = new.target.name;
    this.errors = errors;
  }
}

/** An unknown id, or one owned by another account (never told apart). */
export class NotFoundError extends DomainError {
  readonly kind = 'notFound';
  constructor(message = 'Record not found.') {
    super(message);
  }
}

/** Not allowed for this account. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}

/** Refused by the current state of the record (already done, already in use, ...). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

/** Existed, and is gone for good (an archive past its day): asking again will not bring it. */
export class GoneError extends DomainError {
  readonly kind = 'gone';
}

/** A rule refuses the input; the message defaults to the first field message. */
export class InvalidError extends DomainError {
  readonly kind = 'invalid';
  constructor(message: string | undefined, errors: FieldErrors = {}) {
    const first = Object.values(errors).find((list) => list.length > 0)?.[0];
    super(message ?? first ?? 'The given data was invalid.', errors);
  }
}

/** One field refused, e.g. `fieldInvalid('username', 'Username already taken.')`. */
export const fieldInvalid = (field: string, message: string) =>
  new InvalidError(undefined, { [field]: [message] });

/** A service the request needs is down (mail, chain); the caller may retry later. */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';
}
