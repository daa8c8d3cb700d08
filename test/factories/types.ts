import type { OperationId, ResultOf } from '../msw/contract';

/** A feature's default 200 answers; test/contract/fixtures.test.ts checks each against openapi.yaml. */
export type Fixtures = { [K in OperationId]?: ResultOf<K> };
