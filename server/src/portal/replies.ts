type Done = { status: true; msg: string };

/** The answer of an operation that went through: `{ status: true, msg }`, then any `more`. */
export function done(msg: string): Done;
export function done<T extends object>(msg: string, more: T): Done & T;
export function done(msg: string, more: object = {}): Done {
  return { status: true, msg, ...more };
}
