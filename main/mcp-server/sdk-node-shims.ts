/**
 * The server SDK's Node shims (`@modelcontextprotocol/server/_shims`, which the SDK picks by
 * platform), given to the bundles instead of the SDK's own (scripts/build.mjs). The same
 * `process`, and the same JSON Schema validator (the SDK's Ajv one), made when it is first used
 * instead of when the SDK is loaded. Why: the SDK loads Ajv for every process, and a Skillbench
 * server never uses it (its tools declare plain JSON Schemas and it asks clients for nothing), yet
 * loading it was ~25 ms of every `skillbench serve` start. Tests that run from source use the
 * SDK's own shims; `sdk-node-shims.test.ts` checks that this one validates the same way.
 */
import process from 'node:process';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/server';

type Validator = jsonSchemaValidator;

let load: () => Validator = () => {
  // Why require and not import(): the SDK asks for a validator synchronously; the bundler keeps
  // this module in the bundle and runs it only here, the first time.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ajv = require('@modelcontextprotocol/server/validators/ajv') as {
    AjvJsonSchemaValidator: new () => Validator;
  };
  load = () => new ajv.AjvJsonSchemaValidator();
  return load();
};

/** The SDK's default JSON Schema validator, made on first use. */
export class DefaultJsonSchemaValidator implements Validator {
  #real: Validator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#real ??= load();
    return this.#real.getValidator<T>(schema);
  }
}

export { process };
