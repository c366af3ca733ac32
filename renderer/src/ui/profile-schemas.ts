import agentskills from '../../../shared/schemas/agentskills.schema.json';
import agentskillsMcp from '../../../shared/schemas/agentskills-mcp.schema.json';
import claudeCode from '../../../shared/schemas/claude-code.schema.json';
import claudeUpload from '../../../shared/schemas/claude-upload.schema.json';
import mcpServe from '../../../shared/schemas/mcp-serve.schema.json';
import universal from '../../../shared/schemas/universal-2.1.schema.json';
import xPersonalMcp from '../../../shared/schemas/x-personal-mcp.schema.json';
import { schemaId } from '../../../shared/schemas';
import type { ProfileId } from '../../../shared/validation/types';

/** The core's JSON Schema of each profile, for monaco-yaml and the form view (the same files ajv uses). */
export const PROFILE_SCHEMAS: Readonly<Record<ProfileId, object>> = {
  agentskills,
  'agentskills-mcp': agentskillsMcp,
  'claude-code': claudeCode,
  'claude-upload': claudeUpload,
  'mcp-serve': mcpServe,
  'universal-2.1': universal,
  'x-personal-mcp': xPersonalMcp,
};

/** The schema and its URI for the editor, from the first selected profile (monaco-yaml takes one schema per file). */
export function editorSchemaFor(profiles: readonly ProfileId[]): { uri: string; schema: object } {
  const profile = profiles[0] ?? 'agentskills';
  return { uri: schemaId(profile), schema: PROFILE_SCHEMAS[profile] };
}
