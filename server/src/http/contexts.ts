import type { FastifyPluginAsync } from 'fastify';

const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * A plugin (an encapsulated context of routes) under a name of its own, as fastify-plugin names
 * its plugins: Fastify shows the name in its plugin tree and its errors, and needs no search for
 * one (for a function without it, Fastify looks through every loaded module for one that exports
 * it: a few milliseconds a registration under a test runner, whose module list is long).
 */
export function named<T extends FastifyPluginAsync<never>>(name: string, plugin: T): T {
  return Object.assign(plugin, { [DISPLAY_NAME]: name });
}
