export { PROFILE_VALIDATORS, validateJsonSchemaDocument } from './validators';
export type { AjvError, CompiledValidator } from './validators';
