import { Validator } from '@seriousme/openapi-schema-validator';

type MetaSchemaValidator = ((data: unknown) => boolean) & { errors?: unknown };
interface ValidatorInternals {
  ajvOptions: unknown;
  getAjvValidator?: (version: string) => MetaSchemaValidator;
}

const compiledByKey = new Map<string, MetaSchemaValidator>();
let shared = false;

/**
 * fastify-openapi-glue checks its document against the OpenAPI meta-schema with a new Validator
 * each time, and each Validator compiles that large meta-schema again: a third of the server's
 * start-up CPU for two documents, and as much for every app a test builds. The compiled
 * meta-schema is the same for every document of a version: keep one per version and options.
 * The check itself is unchanged. Should a release of the validator drop this internal method,
 * it keeps working as it was, only slower.
 */
export function shareMetaSchemaValidators(): void {
  const prototype = Validator.prototype as unknown as ValidatorInternals;
  const compile = prototype.getAjvValidator;
  if (shared || typeof compile !== 'function') return;
  shared = true;
  prototype.getAjvValidator = function (this: ValidatorInternals, version: string) {
    const key = `${version}:${JSON.stringify(this.ajvOptions)}`;
    let validate = compiledByKey.get(key);
    if (!validate) {
      validate = compile.call(this, version);
      compiledByKey.set(key, validate);
    }
    return validate;
  };
}
