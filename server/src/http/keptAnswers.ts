/**
 * Answers that never change while the process runs (reference data written only by the seed,
 * e.g. the countries), with their JSON text made once: the serializer sends the kept text
 * instead of stringifying the same 13 KB again on every request (issue 18 profile).
 */
const serialized = new WeakMap<object, string>();

/** Keeps `answer`'s JSON text and returns `answer`, frozen: it must not change afterwards. */
export function keepSerialized<T extends object>(answer: T): T {
  serialized.set(answer, JSON.stringify(answer));
  return Object.freeze(answer);
}

/** The app's serializer: a kept answer's text, else JSON.stringify. */
export function serializeAnswer(data: unknown): string {
  const kept = typeof data === 'object' && data !== null ? serialized.get(data) : undefined;
  return kept ?? JSON.stringify(data);
}
