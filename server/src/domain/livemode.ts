// Test mode: whether an object is live is its app's (apps.livemode), so the domain makes its
// gateway objects without the field and it is added where they leave: the gateway's answers
// (the key's mode) and the webhook events (recordEvents, the app's mode).

/** A gateway object as the domain makes it, before its mode is added. */
export type Unmoded<T> = Omit<T, 'livemode'>;

/** `value` with the mode of the app it belongs to. */
export function withMode<T extends object>(value: T, livemode: boolean): T & { livemode: boolean } {
  return { ...value, livemode };
}
