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

const byLowerCaseId = new Map<string, Operation>();
for (const { operationId, method, path: opPath, responses } of contract.operations) {
  const key = operationId.toLowerCase();
  if (byLowerCaseId.has(key))
    throw new Error(`openapi.yaml: operationIds differ only by case: ${key}`);
  // msw's `http` helpers are named by the lower-case method.
  byLowerCaseId.set(key, {
    operationId,
    method: method.toLowerCase(),
    path: opPath,
    responses: { ...responses },
  });
}

/**
 * An operation by its operationId or by its generated endpoint's name: the codegen camel-cases
 * ids (`change2fa` becomes `change2Fa`), and ids are unique regardless of case (checked above).
 */
export function operationOf(name: string): Operation {
  const operation = byLowerCaseId.get(name.toLowerCase());
  if (!operation) throw new Error(`openapi.yaml has no operation ${name}`);
  return operation;
}

const cache = new Map<string, ValidateFunction>();

/** Ajv validator of the JSON body an operation declares for `status`. */
export function responseValidator(name: string, status: number): ValidateFunction {
  const { operationId, responses } = operationOf(name);
  const key = `${operationId} ${status}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const response = responses[String(status)];
  if (!response) throw new Error(`${operationId} declares no ${status} response`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${operationId} ${status} has no JSON body`);
  const validate = contract.validator(schema);
  cache.set(key, validate);
  return validate;
}

/** Throws with Ajv's messages when `body` is not what the contract says. */
export function assertMatchesContract(name: string, status: number, body: unknown) {
  const validate = responseValidator(name, status);
  if (!validate(body)) {
    throw new Error(
      `${name} ${status} does not match openapi.yaml: ${contract.ajv.errorsText(validate.errors)}`,
    );
  }
}
