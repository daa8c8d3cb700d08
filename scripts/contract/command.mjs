// The operator commands a run is given (`--fund`, `--mine`, `--pay`): shell commands with `{name}`
// placeholders, filled in shell-quoted, run with the tool's own environment.
import { exec } from 'node:child_process';
import { shellQuote } from './http.mjs';

/** @typedef {{ ok: boolean, output: string, command: string }} CommandResult */

const COMMAND_TIMEOUT_MS = 60_000;

/**
 * Runs `command` with each `{name}` of `values` filled in; other braces stay as they are.
 * @param {string} command @param {Record<string, string>} values @returns {Promise<CommandResult>}
 */
export function runCommand(command, values) {
  const filled = command.replace(/\{(\w+)\}/g, (whole, key) =>
    Object.hasOwn(values, key) ? shellQuote(values[key] ?? '') : whole,
  );
  return new Promise((resolve) => {
    exec(filled, { timeout: COMMAND_TIMEOUT_MS, env: process.env }, (error, stdout, stderr) => {
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim(), command: filled });
    });
  });
}
