import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { isObject, loadSpecification, type OperationInfo } from '../src/openapi/spec';
import { OPENAPI_PATH } from '../src/paths';

// Tests call operations by operationId: the method, the path and the server prefix come from the
// contract, so no test restates them (as test/msw/contract.ts does for the client).

type Scalar = string | number;

export interface CallOptions {
  /** Path parameters by name; each value is URI-encoded into the path. */
  params?: Record<string, Scalar>;
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, Scalar | undefined>;
  /** A JSON body, or raw bytes whose content type `headers` gives (multipart, broken bodies). */
  body?: InjectOptions['payload'];
  headers?: InjectOptions['headers'];
  remoteAddress?: string;
}

interface Contract {
  prefix: string;
  byId: Map<string, OperationInfo>;
}

const contracts = new Map<string, Contract>();

function contractOf(file: string): Contract {
  const known = contracts.get(file);
  if (known) return known;
  const { document, operations } = loadSpecification(file);
  const server = Array.isArray(document.servers) ? document.servers[0] : undefined;
  if (!isObject(server) || typeof server.url !== 'string') {
    throw new Error(`${file} names no server URL to prefix its paths with`);
  }
  const contract = { prefix: server.url, byId: new Map(operations.map((o) => [o.operationId, o])) };
  contracts.set(file, contract);
  return contract;
}

function operationOf(file: string, operationId: string): { op: OperationInfo; prefix: string } {
  const { prefix, byId } = contractOf(file);
  const op = byId.get(operationId);
  if (!op) throw new Error(`${file} has no operation ${operationId}`);
  return { op, prefix };
}

/** The URL of an operation with its parameters filled in, as the server's own links spell it. */
export function urlOf(
  operationId: string,
  { params = {}, query = {} }: Pick<CallOptions, 'params' | 'query'> = {},
  specification: string = OPENAPI_PATH,
): string {
  const { op, prefix } = operationOf(specification, operationId);
  const unused = new Set(Object.keys(params));
  const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
    unused.delete(name);
    return encodeURIComponent(String(value));
  });
  if (unused.size > 0) {
    throw new Error(`${operationId} has no path parameter ${[...unused].join(', ')}`);
  }
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) search.append(name, String(value));
  }
  const qs = search.toString();
  return `${prefix}${path}${qs ? `?${qs}` : ''}`;
}

/** Sends one operation to `app` through Fastify's inject. */
export function call(
  app: FastifyInstance,
  operationId: string,
  options: CallOptions = {},
  specification: string = OPENAPI_PATH,
): Promise<LightMyRequestResponse> {
  const { op } = operationOf(specification, operationId);
  const { body, headers, remoteAddress } = options;
  return app.inject({
    method: op.method as InjectOptions['method'],
    url: urlOf(operationId, options, specification),
    ...(headers === undefined ? {} : { headers }),
    ...(body === undefined ? {} : { payload: body }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}
