import type { ProfileId } from '../validation/types';

export { PROFILE_VALIDATORS, validateJsonSchemaDocument } from './validators';
export type { AjvError, CompiledValidator } from './validators';

/** The `$id` of a profile's schema (also the URI to register with monaco-yaml). */
export function schemaId(profile: ProfileId): string {
  return `https://skillbench.dev/schemas/${profile}.schema.json`;
}

/** The schema's file name inside shared/schemas/. */
export function schemaFileName(profile: ProfileId): string {
  return `${profile}.schema.json`;
}
