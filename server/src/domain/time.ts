/** Current time as stored in the database (ISO-8601 UTC). Injectable clock for tests. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function isoNow(clock: Clock = systemClock): string {
  return clock().toISOString();
}
