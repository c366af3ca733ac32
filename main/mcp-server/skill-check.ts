/**
 * Whether the embedded server may serve a skill: the validation core's `mcp-serve` profile
 * (docs/skill-format.md §2), run on the SKILL.md text with a file view of its folder.
 * The rules live in shared/validation; this module only turns the verdict into reasons.
 */
import { parseSkill } from '../../shared/skill';
import type { ParsedSkill } from '../../shared/skill';
import { validateSkill } from '../../shared/validation';
import type { FileView } from '../../shared/validation';

/** The verdict for one skill: served or not, with plain-sentence reasons and warnings. */
export interface SkillCheckResult {
  servable: boolean;
  /** Why it is not served (errors), in the validator's own words. */
  reasons: string[];
  /** Findings that do not block serving. */
  warnings: string[];
}

/** A servable-check: the default runs the `mcp-serve` profile; tests and the app may pass their own. */
export type SkillCheck = (input: {
  text: string;
  parsed: ParsedSkill;
  fileView: FileView;
}) => SkillCheckResult;

/** The default check: `validateSkill(text, {profiles: ['mcp-serve'], fileView})`. */
export const mcpServeCheck: SkillCheck = ({ parsed, fileView }) => {
  const result = validateSkill(parsed, { profiles: ['mcp-serve'], fileView });
  const reasons: string[] = [];
  const warnings: string[] = [];
  for (const d of result.diagnostics) {
    const where = d.file && d.file !== 'SKILL.md' ? ` (${d.file})` : '';
    const line = `${d.message}${where} [${d.ruleId}]`;
    if (d.severity === 'error') reasons.push(line);
    else if (d.severity !== 'info') warnings.push(line);
  }
  return { servable: reasons.length === 0, reasons, warnings };
};

/** Parse a SKILL.md through the shared parser (the only frontmatter reader in the project). */
export function parseSkillText(text: string): ParsedSkill {
  return parseSkill(text);
}
