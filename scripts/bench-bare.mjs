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
 * One route's answer as our server gave it; `body` is base64 (the bytes, unchanged). A route
 * recorded with several Accept-Encoding values answers each with its own recorded bytes.
 * @typedef {{ method: 'GET' | 'POST', url: string, acceptEncoding?: string, status: number, headers: Record<string, string | string[]>, body: string }} RecordedAnswer
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

  /** @type {Map<string, Map<string, { answer: RecordedAnswer, body: Buffer }>>} */
  const routes = new Map();
  for (const answer of answers) {
    const route = `${answer.method} ${answer.url}`;
    const byEncoding = routes.get(route) ?? new Map();
    byEncoding.set(answer.acceptEncoding ?? '', {
      answer,
      body: Buffer.from(answer.body, 'base64'),
    });
    routes.set(route, byEncoding);
  }

  const app = Fastify();
  for (const byEncoding of routes.values()) {
    const [only] = byEncoding.values();
    if (!only) continue;
    const { method, url } = only.answer;
    // A POST's JSON body is parsed, as ours parses it, and then ignored.
    app.route({
      method,
      url,
      handler:
        byEncoding.size === 1
          ? (_request, reply) => {
              reply.code(only.answer.status).headers(only.answer.headers).send(only.body);
            }
          : (request, reply) => {
              const { answer, body } =
                byEncoding.get(request.headers['accept-encoding'] ?? '') ?? only;
              reply.code(answer.status).headers(answer.headers).send(body);
            },
    });
  }
  // No shutdown handler: it holds nothing to flush, so SIGTERM's default (exit) is enough.
  await app.listen({ port, host: '127.0.0.1' });
  if (cluster.isPrimary) console.log('Bare listening (1 process)');
}
