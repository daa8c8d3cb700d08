import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { Contract, type Response as ContractResponse } from '../../scripts/contract/spec.mjs';

/**
 * openapi.yaml, read once: the msw handlers and the fixture checks derive from it. The loading,
 * `$ref` resolution and Ajv 2020 setup are the contract tool's (scripts/contract/spec.mjs), so
 * the mocks and `npm run contract` judge answers alike.
 */
interface Operation {
  operationId: string;
  method: string;
  path: string;
  responses: Record<string, ContractResponse>;
}

const contract = new Contract(path.resolve(__dirname, '../../openapi.yaml'));

export const document = contract.document;

export const operations: Record<string, Operation> = {};
for (const { operationId, method, path: opPath, responses } of contract.operations) {
  operations[operationId] = { operationId, method, path: opPath, responses: { ...responses } };
}

const cache = new Map<string, ValidateFunction>();

/** Ajv validator of the JSON body an operation declares for `status`. */
export function responseValidator(operationId: string, status: number): ValidateFunction {
  const key = `${operationId} ${status}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const operation = contract.operations.find((op) => op.operationId === operationId);
  if (!operation) throw new Error(`openapi.yaml has no operation ${operationId}`);
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`${operationId} declares no ${status} response`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${operationId} ${status} has no JSON body`);
  const validate = contract.validator(schema);
  cache.set(key, validate);
  return validate;
}

/** Throws with Ajv's messages when `body` is not what the contract says. */
export function assertMatchesContract(operationId: string, status: number, body: unknown) {
  const validate = responseValidator(operationId, status);
  if (!validate(body)) {
    throw new Error(
      `${operationId} ${status} does not match openapi.yaml: ${contract.ajv.errorsText(validate.errors)}`,
    );
  }
}
