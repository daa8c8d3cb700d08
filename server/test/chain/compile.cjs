// Compiles the test contracts (TestUsdt.sol, MockAggregator.sol) with the npm `solc` package (its
// bundled compiler: no download) and prints {abi, bytecode} of the contract named on the command
// line (TestUsdt unless said) as JSON. Run as a child process so Jest never transforms soljson.js.
const fs = require('node:fs');
const path = require('node:path');
const solc = require('solc');

const contractName = process.argv[2] ?? 'TestUsdt';
const files = fs.readdirSync(__dirname).filter((file) => file.endsWith('.sol'));
const input = {
  language: 'Solidity',
  sources: Object.fromEntries(
    files.map((file) => [file, { content: fs.readFileSync(path.join(__dirname, file), 'utf8') }]),
  ),
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'paris',
    outputSelection: { '*': { [contractName]: ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length > 0) {
  process.stderr.write(errors.map((e) => e.formattedMessage).join('\n'));
  process.exit(1);
}
const contract = Object.values(output.contracts).find((byName) => byName[contractName])?.[
  contractName
];
if (!contract) {
  process.stderr.write(`No contract ${contractName} in ${files.join(', ')}`);
  process.exit(1);
}
process.stdout.write(
  JSON.stringify({ abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }),
);
