/** The answer of an operation that only reports it went through: `{ status: true, msg }`. */
export function done(msg: string): { status: true; msg: string } {
  return { status: true, msg };
}
