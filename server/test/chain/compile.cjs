// Compiles the test contracts (TestUsdt.sol, MockAggregator.sol) with the npm `solc` package (its
// bundled compiler: no download) and prints {abi, bytecode} of the contract named on the command
// line (TestUsdt unless said) as JSON. Run as a child process so Jest never transforms soljson.js.
//
// Loading the compiler costs about 2 s of CPU, and the Hardhat suites ask for a contract a dozen
// times a run: the first run compiles every contract once and keeps the result in
// node_modules/.cache/portal-test-contracts/, named by a hash of the sources, this file and the
// compiler's version, so a changed contract or compiler compiles again. The solc package is loaded
// only when the cache has no result.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const contractName = process.argv[2] ?? 'TestUsdt';
const files = fs
  .readdirSync(__dirname)
  .filter((file) => file.endsWith('.sol'))
  .sort();
const sources = Object.fromEntries(
  files.map((file) => [file, { content: fs.readFileSync(path.join(__dirname, file), 'utf8') }]),
);

const solcVersion = JSON.parse(
  fs.readFileSync(require.resolve('solc/package.json'), 'utf8'),
).version;
const key = createHash('sha256')
  .update(JSON.stringify({ solcVersion, compiler: fs.readFileSync(__filename, 'utf8'), sources }))
  .digest('hex')
  .slice(0, 32);
const cacheDir = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'node_modules',
  '.cache',
  'portal-test-contracts',
);
const cacheFile = path.join(cacheDir, `${key}.json`);

/** Every contract of the sources, by name: {abi, bytecode}. */
function compileAll() {
  const solc = require('solc');
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    process.stderr.write(errors.map((e) => e.formattedMessage).join('\n'));
    process.exit(1);
  }
  const contracts = {};
  for (const byName of Object.values(output.contracts)) {
    for (const [name, contract] of Object.entries(byName)) {
      contracts[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
    }
  }
  return contracts;
}

let contracts;
try {
  contracts = JSON.parse(fs.readFileSync(cacheFile, 'utf8'));
} catch {
  contracts = compileAll();
  // Written whole, then renamed: a Jest worker reading it meanwhile sees all of it or none.
  fs.mkdirSync(cacheDir, { recursive: true });
  const partial = `${cacheFile}.${process.pid}`;
  fs.writeFileSync(partial, JSON.stringify(contracts));
  fs.renameSync(partial, cacheFile);
}
const contract = contracts[contractName];
if (!contract) {
  process.stderr.write(`No contract ${contractName} in ${files.join(', ')}`);
  process.exit(1);
}
process.stdout.write(JSON.stringify(contract));
