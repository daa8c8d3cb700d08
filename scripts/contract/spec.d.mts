// Types of spec.mjs for TypeScript callers (test/contract/openapi.ts, the tool's tests).
import type Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';

export type Json = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
  description?: string;
}

export interface Response {
  description?: string;
  content?: Record<string, { schema?: Json }>;
  headers?: Record<string, { required?: boolean; schema?: Json }>;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  parameters: Parameter[];
  body: { required: boolean; content: Record<string, { schema?: Json }> } | null;
  responses: Record<string, Response>;
  security: Record<string, string[]>[];
  schemes: string[];
  anonymous: boolean;
  destructive: boolean;
}

export const HTTP_METHODS: string[];
export function isObject(v: unknown): v is Json;
export function refName(schema: unknown): string | null;

export class Contract {
  constructor(file: string);
  readonly document: Json & { paths: Record<string, Json>; components: Json };
  readonly ajv: Ajv2020;
  readonly operations: Operation[];
  deref(node: unknown): Json;
  operation(operationId: string): Operation;
  validator(schema: unknown): ValidateFunction;
  valid(schema: unknown, value: unknown): boolean;
  responseFor(op: Operation, status: number): Response | null;
}
