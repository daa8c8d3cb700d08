import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../config';
import { loadRequestKey, REQUEST_KEY_FILE } from './requestKey';
import { encodeRequest, requestSigner, verifyRequestMac, type MoneyOut } from './requestMac';

// The request key is the one secret the web process and the signer share and the database never
// holds; the MAC ties a money-out request to what the web process accepted.

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'request-key-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const signerOf = (env: Record<string, string> = {}) => loadConfig(env).signer;
const file = () => path.join(dataDir, REQUEST_KEY_FILE);

describe('the request key', () => {
  it('is made once, owner-only, in DATA_DIR; every process then reads the same key', () => {
    const made = loadRequestKey({ dataDir, signer: signerOf(), create: true });
    expect(made).toHaveLength(32);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(loadRequestKey({ dataDir, signer: signerOf(), create: true })).toEqual(made);
    expect(loadRequestKey({ dataDir, signer: signerOf(), create: false })).toEqual(made);
  });

  it('missing where it may not be made (the web process in production): names the file and the setting', () => {
    expect(() => loadRequestKey({ dataDir, signer: signerOf(), create: false })).toThrow(
      `The signer's request key ${file()} is missing: start the signer first (it creates it), copy it from the signer host, or set SIGNER_REQUEST_KEY (or SIGNER_REQUEST_KEY_FILE).`,
    );
  });

  it('refuses a key file others may read', () => {
    writeFileSync(file(), `${'a'.repeat(64)}\n`, { mode: 0o644 });
    chmodSync(file(), 0o644);
    expect(() => loadRequestKey({ dataDir, signer: signerOf(), create: true })).toThrow(
      `The signer's request key ${file()} may be read by others (mode 644): make it owner-only (chmod 600 ${file()}).`,
    );
  });

  it('takes SIGNER_REQUEST_KEY (hex or base64) before any file, and SIGNER_REQUEST_KEY_FILE', () => {
    const hex = '0f'.repeat(32);
    expect(
      loadRequestKey({ dataDir, signer: signerOf({ SIGNER_REQUEST_KEY: hex }), create: false }),
    ).toEqual(Buffer.from(hex, 'hex'));
    const base64 = Buffer.from(hex, 'hex').toString('base64');
    expect(
      loadRequestKey({ dataDir, signer: signerOf({ SIGNER_REQUEST_KEY: base64 }), create: false }),
    ).toEqual(Buffer.from(hex, 'hex'));
    expect(() => loadConfig({ SIGNER_REQUEST_KEY: 'short' })).toThrow(ConfigError);
    const elsewhere = path.join(dataDir, 'keys', 'web.key');
    rmSync(path.dirname(elsewhere), { recursive: true, force: true });
    expect(() =>
      loadRequestKey({
        dataDir,
        signer: signerOf({ SIGNER_REQUEST_KEY_FILE: elsewhere }),
        create: false,
      }),
    ).toThrow(elsewhere);
    const ownFile = path.join(dataDir, 'web.key');
    const made = loadRequestKey({
      dataDir,
      signer: signerOf({ SIGNER_REQUEST_KEY_FILE: ownFile }),
      create: true,
    });
    expect(Buffer.from(readFileSync(ownFile, 'utf8').trim(), 'hex')).toEqual(made);
  });
});

describe('the request MAC', () => {
  const key = Buffer.alloc(32, 7);
  const withdrawal: MoneyOut = {
    kind: 'withdrawal',
    id: 'wd_1',
    appId: 'app_1',
    paymentMethodId: 'pm_usdt_bsc',
    source: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    destination: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    amountRaw: '2000000000000000000',
    purpose: 'payout-1',
  };
  const mac = requestSigner(key)(withdrawal);

  it('verifies the fields it was made over, whatever the case of an EVM address', () => {
    expect(verifyRequestMac(key, withdrawal, mac)).toBe(true);
    expect(
      verifyRequestMac(
        key,
        { ...withdrawal, destination: withdrawal.destination.toLowerCase() },
        mac,
      ),
    ).toBe(true);
  });

  it.each([
    ['id', { id: 'wd_2' }],
    ['app', { appId: 'app_2' }],
    ['method', { paymentMethodId: 'pm_usdt_eth' }],
    ['paying wallet', { source: '0x0000000000000000000000000000000000000002' }],
    ['destination', { destination: '0x0000000000000000000000000000000000000001' }],
    ['amount', { amountRaw: '50000000000000000000' }],
    ['purpose', { purpose: 'other' }],
    ['kind', { kind: 'refund' as const }],
  ])('fails once its %s changes', (_, change) => {
    expect(verifyRequestMac(key, { ...withdrawal, ...change }, mac)).toBe(false);
  });

  it('fails without a MAC, with another key, or with a MAC that is not one', () => {
    expect(verifyRequestMac(key, withdrawal, null)).toBe(false);
    expect(verifyRequestMac(Buffer.alloc(32, 8), withdrawal, mac)).toBe(false);
    expect(verifyRequestMac(key, withdrawal, 'zz')).toBe(false);
  });

  it('encodes a refund with its invoice and the address it was paid to, versioned', () => {
    expect(
      encodeRequest({
        ...withdrawal,
        kind: 'refund',
        invoiceId: 'inv_9',
        paidTo: '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF',
      }),
    ).toBe(
      JSON.stringify([
        'money-out/v1',
        'refund',
        'wd_1',
        'app_1',
        'pm_usdt_bsc',
        '0x8ba1f109551bd432803012645ac136ddd64dba72',
        '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
        '2000000000000000000',
        'payout-1',
        'inv_9',
        '0x2b5ad5c4795c026514f8317c7a215e218dccd6cf',
      ]),
    );
  });

  it("covers a plan's end; a plan registered before ends were carried keeps its MAC", () => {
    const plan = {
      kind: 'plan' as const,
      appId: 'app_1',
      packageId: 'pkg_business',
      until: '2026-12-29T00:00:00.000Z',
      at: '2026-11-29T00:00:00.000Z',
    };
    const planMac = requestSigner(key)(plan);
    expect(verifyRequestMac(key, plan, planMac)).toBe(true);
    expect(verifyRequestMac(key, { ...plan, until: '2027-12-29T00:00:00.000Z' }, planMac)).toBe(
      false,
    );
    expect(verifyRequestMac(key, { ...plan, until: null }, planMac)).toBe(false);
    expect(encodeRequest({ ...plan, until: null })).toBe(
      JSON.stringify(['plan/v1', 'app_1', 'pkg_business', '2026-11-29T00:00:00.000Z']),
    );
  });
});
