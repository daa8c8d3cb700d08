import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has safe defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: './data',
      storageDir: undefined,
      nodeEnv: 'development',
      isProduction: false,
      responseValidation: true,
      sessionIdleMinutes: 30,
      sessionMaxHours: 12,
      rateLimit: { max: 300, windowMs: 60_000, authMax: 10 },
      trustProxy: false,
      smtpUrl: undefined,
      chainRpcUrl: undefined,
      chainRpcUrls: new Map(),
      chainTokenContracts: new Map(),
      usdtContract: undefined,
      walletXpub: undefined,
      secretKey: undefined,
      metricsToken: undefined,
      checkoutRefreshSeconds: 15,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/portal',
      STORAGE_DIR: '/mnt/shared/uploads',
      NODE_ENV: 'test',
      SESSION_IDLE_MINUTES: '5',
      SESSION_MAX_HOURS: '8',
      RATE_LIMIT_MAX: '50',
      RATE_LIMIT_WINDOW_MS: '1000',
      AUTH_RATE_LIMIT_MAX: '3',
      SMTP_URL: 'smtp://localhost:2525',
      CHAIN_RPC_URL: 'http://127.0.0.1:8545',
      CHAIN_RPC_URLS:
        '1=https://eth.example/rpc|https://eth-b.example/v3/key,97=https://bsc-testnet.example',
      CHAIN_TOKEN_CONTRACTS: '97=0x337610d27c682E347C9cD60BD4b3b107C9d34dDd',
      BALANCE_RPC_URLS: '137=http://polygon.example:8545',
      USDT_CONTRACT: '0x55d398326f99059fF775485246999027B3197955',
      WALLET_XPUB: 'xpub123',
      SECRET_KEY: 'k'.repeat(40),
      TRUST_PROXY: '2',
      METRICS_TOKEN: 'scrape-token-0123456789',
      CHECKOUT_REFRESH_SECONDS: '2',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/var/lib/portal',
      storageDir: '/mnt/shared/uploads',
      nodeEnv: 'test',
      sessionIdleMinutes: 5,
      sessionMaxHours: 8,
      rateLimit: { max: 50, windowMs: 1000, authMax: 3 },
      smtpUrl: 'smtp://localhost:2525',
      chainRpcUrl: 'http://127.0.0.1:8545',
      chainRpcUrls: new Map([
        [1, 'https://eth.example/rpc|https://eth-b.example/v3/key'],
        [97, 'https://bsc-testnet.example'],
        [137, 'http://polygon.example:8545'],
      ]),
      chainTokenContracts: new Map([[97, '0x337610d27c682E347C9cD60BD4b3b107C9d34dDd']]),
      walletXpub: 'xpub123',
      secretKey: 'k'.repeat(40),
      trustProxy: 2,
      metricsToken: 'scrape-token-0123456789',
      checkoutRefreshSeconds: 2,
    });
  });

  it('turns response validation off in production unless asked for', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).responseValidation).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'production', RESPONSE_VALIDATION: '1' }).responseValidation,
    ).toBe(true);
    expect(loadConfig({ RESPONSE_VALIDATION: 'off' }).responseValidation).toBe(false);
  });

  it('runs one process per core unless PROCESSES says how many', () => {
    expect(loadConfig({}).processes).toBe('auto');
    expect(loadConfig({ PROCESSES: 'auto' }).processes).toBe('auto');
    expect(loadConfig({ PROCESSES: '3' }).processes).toBe(3);
    expect(() => loadConfig({ PROCESSES: '0' })).toThrow('PROCESSES must be between 1 and 256');
    expect(() => loadConfig({ PROCESSES: 'two' })).toThrow(
      "PROCESSES must be a whole number, got 'two'",
    );
  });

  it('keeps reads in memory unless KEPT_READS is off', () => {
    expect(loadConfig({}).keptReads).toBe(true);
    expect(loadConfig({ KEPT_READS: 'off' }).keptReads).toBe(false);
    expect(() => loadConfig({ KEPT_READS: 'sometimes' })).toThrow(/KEPT_READS/);
  });

  it('seeds the demo account outside production unless SEED_DEMO is off', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'off' }).seedDemo).toBe(false);
  });

  it('reads TRUST_PROXY as off, a hop count or a list of proxies', () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('1')).toBe(1);
    expect(trust('10.0.0.2, 10.1.0.0/16,2001:db8::/32, ::1')).toEqual([
      '10.0.0.2',
      '10.1.0.0/16',
      '2001:db8::/32',
      '::1',
    ]);
  });

  it("reads the invoices' rate sources: pegs, Chainlink feeds and the cache", () => {
    expect(loadConfig({}).rates).toEqual({
      pegs: new Map([
        ['USDT', '1'],
        ['USDC', '1'],
      ]),
      chainlinkFeeds: new Map(),
      cacheMs: 5_000,
    });
    const feed = '0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE';
    expect(
      loadConfig({
        RATE_PEGS: 'USDT=0.9995',
        CHAINLINK_FEEDS: `BNB/USD=56:${feed}:60, EUR/USD=1:${feed}:86400`,
        RATE_CACHE_MS: '0',
      }).rates,
    ).toEqual({
      pegs: new Map([['USDT', '0.9995']]),
      chainlinkFeeds: new Map([
        ['BNB/USD', { chainId: 56, address: feed, heartbeatSeconds: 60 }],
        ['EUR/USD', { chainId: 1, address: feed, heartbeatSeconds: 86400 }],
      ]),
      cacheMs: 0,
    });
    expect(loadConfig({ RATE_PEGS: 'none' }).rates.pegs).toEqual(new Map());
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', SMTP_URL: '  ' })).toMatchObject({
      port: 8080,
      smtpUrl: undefined,
    });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ SESSION_IDLE_MINUTES: '0' }, /SESSION_IDLE_MINUTES/],
    [{ NODE_ENV: 'staging' }, /NODE_ENV/],
    [{ RESPONSE_VALIDATION: 'maybe' }, /RESPONSE_VALIDATION/],
    [{ BALANCE_RPC_URLS: 'eth=https://eth.example' }, /BALANCE_RPC_URLS takes chainId=/],
    [{ BALANCE_RPC_URLS: '1=ftp://eth.example' }, /BALANCE_RPC_URLS takes chainId=/],
    [{ CHAIN_RPC_URLS: '1=https://a.example|ftp://b.example' }, /several URLs of one chain/],
    [{ CHAIN_RPC_URLS: '1=https://a.example|' }, /CHAIN_RPC_URLS takes chainId=/],
    [{ BALANCE_RPC_URLS: '1=https://a.example,1=https://b.example' }, /names chain 1 twice/],
    [{ BALANCE_RPC_URLS: '56=https://bsc.example' }, /read over CHAIN_RPC_URL/],
    [{ CHAIN_RPC_URLS: '0=https://tron.example' }, /Tron \(0\) is not an EVM chain/],
    [
      { CHAIN_RPC_URLS: '1=https://a.example', BALANCE_RPC_URLS: '1=https://b.example' },
      /CHAIN_RPC_URLS and BALANCE_RPC_URLS both name chain 1/,
    ],
    [
      { CHAIN_RPC_URLS: '97=https://bsc-testnet.example' },
      /points test network 97 at a public testnet: CHAIN_TOKEN_CONTRACTS must say where its USDT is/,
    ],
    [
      { CHAIN_TOKEN_CONTRACTS: `97=0x${'ab'.repeat(20)}` },
      /names chain 97, which CHAIN_RPC_URLS does not serve/,
    ],
    [
      { CHAIN_RPC_URLS: '97=https://t.example', CHAIN_TOKEN_CONTRACTS: '97=0x12' },
      /CHAIN_TOKEN_CONTRACTS takes chainId=contract-address pairs/,
    ],
    [{ CHAIN_TOKEN_CONTRACTS: `56=0x${'ab'.repeat(20)}` }, /USDT is USDT_CONTRACT/],
    [{ DATABASE_URL: 'mysql://db.example/portal' }, /DATABASE_URL must be a postgres:\/\/ URL/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 characters/],
    [{ METRICS_TOKEN: 'sixteen chars or more' }, /without spaces/],
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY=true would let any client pick its address/],
    [{ TRUST_PROXY: '*' }, /TRUST_PROXY=\* would let any client pick its address/],
    [{ TRUST_PROXY: '0.0.0.0/0' }, /never every address. Got '0.0.0.0\/0'/],
    [{ TRUST_PROXY: '10.0.0.1,::/0' }, /Got '::\/0'/],
    [{ TRUST_PROXY: 'loopback' }, /TRUST_PROXY takes the number of proxies/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY takes the number of proxies/],
    [{ TRUST_PROXY: '11' }, /TRUST_PROXY must be between 1 and 10/],
    [
      { NODE_ENV: 'production', SEED_DEMO: '1' },
      /SEED_DEMO seeds the demo account .* not NODE_ENV=production/,
    ],
    [{ SEED_DEMO: 'maybe' }, /SEED_DEMO must be true or false/],
    [{ RATE_PEGS: 'USDT:1' }, /RATE_PEGS takes ASSET=usd-price pairs/],
    [{ RATE_PEGS: 'USDT=0' }, /RATE_PEGS takes ASSET=usd-price pairs/],
    [{ RATE_PEGS: 'USDT=1,USDT=1' }, /RATE_PEGS names USDT twice/],
    [{ CHAINLINK_FEEDS: 'BNB/USD=56:0x12:60' }, /CHAINLINK_FEEDS takes ASSET\/USD=chainId/],
    [
      { CHAINLINK_FEEDS: 'BNB/EUR=56:0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE:60' },
      /CHAINLINK_FEEDS takes ASSET\/USD=chainId/,
    ],
    [
      { CHAINLINK_FEEDS: 'BNB/USD=56:0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE:0' },
      /CHAINLINK_FEEDS takes ASSET\/USD=chainId/,
    ],
    [{ RATE_CACHE_MS: '60001' }, /RATE_CACHE_MS must be between 0 and 60000/],
    [{ CHECKOUT_REFRESH_SECONDS: '0' }, /CHECKOUT_REFRESH_SECONDS must be between 1 and 3600/],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
