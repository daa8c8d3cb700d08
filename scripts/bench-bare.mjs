// The bare Fastify of `npm run bench:api`: answers each recorded route with the exact status,
// headers and body bytes the portal's server gave, and does nothing else, so the benchmark's
// ratio compares our server with the framework's own ceiling on the same machine. It runs as a
// process of its own, as ours does, so it never shares an event loop with the load generator, and
// in as many processes on the port as ours (node:cluster, as server/src/cluster.ts); it prints
// "Bare listening" once they all listen.
// Usage: node scripts/bench-bare.mjs <answers.json> <port> [processes]
import cluster from 'node:cluster';
import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * One route's answer as our server gave it; `body` is base64 (the bytes, unchanged).
 * @typedef {{ method: 'GET' | 'POST', url: string, status: number, headers: Record<string, string | string[]>, body: string }} RecordedAnswer
 */

const [file, port, processes = '1'] = process.argv.slice(2);
if (!file || !port) {
  throw new Error('usage: node scripts/bench-bare.mjs <answers.json> <port> [processes]');
}
const workers = Number(processes);
if (cluster.isPrimary && workers > 1) {
  let listening = 0;
  cluster.on('listening', () => {
    listening += 1;
    if (listening === workers) console.log(`Bare listening (${workers} processes)`);
  });
  // SIGTERM's default ends the primary; its workers end as their channel to it closes.
  for (let i = 0; i < workers; i += 1) cluster.fork();
} else {
  await serve(file, Number(port));
}

/**
 * One process: the answers recorded in `answersFile`, on `port`.
 * @param {string} answersFile @param {number} port
 */
async function serve(answersFile, port) {
  /** @type {RecordedAnswer[]} */
  const answers = JSON.parse(fs.readFileSync(answersFile, 'utf8'));

  const app = Fastify();
  for (const answer of answers) {
    const body = Buffer.from(answer.body, 'base64');
    // A POST's JSON body is parsed, as ours parses it, and then ignored.
    app.route({
      method: answer.method,
      url: answer.url,
      handler: (_request, reply) => {
        reply.code(answer.status).headers(answer.headers).send(body);
      },
    });
  }
  // No shutdown handler: it holds nothing to flush, so SIGTERM's default (exit) is enough.
  await app.listen({ port, host: '127.0.0.1' });
  if (cluster.isPrimary) console.log('Bare listening (1 process)');
}
