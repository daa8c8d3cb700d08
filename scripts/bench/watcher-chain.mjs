// The busy chain of `npm run bench:watcher`, in a process of its own so that its work is not
// counted in the watcher's CPU time: the JSON-RPC stand-in of server/test/chain/logReplay.ts on
// loopback, started with the options given as JSON in argv[2]. It prints its URL on a line of its
// own and serves until stopped. Run with `node --import tsx` (it loads the TypeScript module).
import { startLogReplay } from '../../server/test/chain/logReplay.ts';

const chain = await startLogReplay(JSON.parse(process.argv[2] ?? '{}'));
process.stdout.write(`${chain.url}\n`);
process.on('SIGTERM', () => {
  void chain.close().then(() => process.exit(0));
});
