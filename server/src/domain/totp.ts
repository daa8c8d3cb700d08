import { generate, generateSecret, generateURI, verify } from 'otplib';

// Thin wrapper so the rest of the server never touches otplib's options directly.
// Tolerance of one 30 s step either side (clock drift of the phone).
const PERIOD = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, account: string, issuer = 'CryptoSafeLock'): string {
  return generateURI({ issuer, label: account, secret });
}

export function totpCode(secret: string, at: Date = new Date()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000), period: PERIOD });
}

export async function verifyTotp(secret: string, code: string, at: Date = new Date()) {
  if (!/^\d{6}$/.test(code)) return false;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(at.getTime() / 1000),
    period: PERIOD,
    epochTolerance: PERIOD,
  });
  return result.valid;
}
