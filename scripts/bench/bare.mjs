// The bare Fastify of `npm run bench:api` (scripts/bench-bare.mjs): our answers recorded route by
// route, the bare server started on them in as many processes on one port as ours, and its replay
// checked to be byte for byte the same, without which the comparison would not hold.
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../net.mjs';
import { rawRequest } from './http.mjs';
import { root, startProcess } from './processes.mjs';

/** Not replayed by the bare server: per-connection or set by Fastify itself for every answer. */
const UNREPLAYED_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/**
 * Each route's exact answer from ours (status, headers but UNREPLAYED_HEADERS, body bytes), in the
 * routes' order, and each body's size by route name; throws on an answer that is not 2xx.
 * @param {string} origin @param {import('./routes.mjs').Route[]} routes
 * @returns {Promise<{ answers: import('../bench-bare.mjs').RecordedAnswer[], sizes: Map<string, number> }>}
 */
export async function recordAnswers(origin, routes) {
  /** @type {import('../bench-bare.mjs').RecordedAnswer[]} */
  const answers = [];
  /** @type {Map<string, number>} */
  const sizes = new Map();
  for (const route of routes) {
    const answer = await rawRequest(`${origin}${route.path}`, route.headers, {
      method: route.method,
      body: route.nextBody?.(),
    });
    if (answer.status < 200 || answer.status > 299) {
      throw new Error(`${route.name} answered ${answer.status}: ${answer.body}`);
    }
    /** @type {Record<string, string | string[]>} */
    const replayed = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !UNREPLAYED_HEADERS.has(name)) replayed[name] = value;
    }
    answers.push({
      method: route.method,
      url: route.path,
      acceptEncoding: route.headers['accept-encoding'],
      status: answer.status,
      headers: replayed,
      body: answer.body.toString('base64'),
    });
    sizes.set(route.name, answer.body.length);
  }
  return { answers, sizes };
}

/**
 * Starts the bare server on `answers` (written into `dataDir`, where its log goes too), as many
 * processes as ours sharing one port the same way: same cores, same split.
 * @param {import('../bench-bare.mjs').RecordedAnswer[]} answers @param {string} dataDir
 * @param {number} processes
 * @returns {Promise<import('./servers.mjs').Side>}
 */
export async function startBare(answers, dataDir, processes) {
  const answersFile = path.join(dataDir, 'answers.json');
  fs.writeFileSync(answersFile, JSON.stringify(answers));
  const barePort = await freePort();
  const bareChild = await startProcess(
    [path.join(root, 'scripts/bench-bare.mjs'), answersFile, String(barePort), String(processes)],
    process.env,
    path.join(dataDir, 'bare.log'),
    `http://127.0.0.1:${barePort}/api/countries`,
    'Bare listening',
  );
  return { origin: `http://127.0.0.1:${barePort}`, server: bareChild };
}

/**
 * Throws unless the bare server gives the very answers ours gave (status, body bytes, replayed
 * headers), asked as the routes ask.
 * @param {import('./servers.mjs').Side} bare
 * @param {import('../bench-bare.mjs').RecordedAnswer[]} answers
 * @param {import('./routes.mjs').Route[]} routes the routes the answers were recorded from
 */
export async function checkReplay(bare, answers, routes) {
  for (const [i, answer] of answers.entries()) {
    const route = routes[i];
    const replay = await rawRequest(`${bare.origin}${answer.url}`, route?.headers ?? {}, {
      method: answer.method,
      body: route?.nextBody?.(),
    });
    const same =
      replay.status === answer.status &&
      replay.body.toString('base64') === answer.body &&
      Object.entries(answer.headers).every(
        ([name, value]) => String(replay.headers[name]) === String(value),
      );
    if (!same) throw new Error(`the bare server does not replay ${answer.url} exactly`);
  }
}
