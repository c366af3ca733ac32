import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { describe, expect, it } from 'vitest';
import { DefaultJsonSchemaValidator } from './sdk-node-shims';

// The bundles give the server SDK this shim instead of its own (scripts/build.mjs); it must judge
// every value as the SDK's own validator does.
describe("the server SDK's Node shims, with the validator made on first use", () => {
  it('validates the same way as the SDK’s Ajv validator', () => {
    const schema = {
      type: 'object' as const,
      properties: { name: { type: 'string', minLength: 2 }, count: { type: 'integer' } },
      required: ['name'],
      additionalProperties: false,
    };
    const ours = new DefaultJsonSchemaValidator().getValidator<unknown>(schema);
    const sdk = new AjvJsonSchemaValidator().getValidator<unknown>(schema);
    for (const value of [
      { name: 'ok' },
      { name: 'ok', count: 3 },
      { name: 'x' },
      { count: 1 },
      { name: 'ok', extra: true },
      { name: 'ok', count: 1.5 },
      'text',
      null,
    ]) {
      const a = ours(value);
      const b = sdk(value);
      expect(a.valid).toBe(b.valid);
      expect(a.errorMessage).toBe(b.errorMessage);
    }
  });
});
