// Types of net.mjs for TypeScript callers (the e2e journeys, the chain tests).
import type { ChildProcess } from 'node:child_process';

export function freePort(): Promise<number>;
export function waitForServer(url: string, child: ChildProcess, timeoutMs?: number): Promise<void>;
