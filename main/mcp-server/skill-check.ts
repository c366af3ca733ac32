/**
 * Whether the embedded server may serve a skill: the validation core's `mcp-serve` profile
 * (docs/skill-format.md §2), run on the SKILL.md text with a file view of its folder.
 * The rules live in shared/validation; this module only turns the verdict into reasons.
 */
import { parseSkill } from '../../shared/skill';
import type { ParsedSkill } from '../../shared/skill';
import { validateSkill } from '../../shared/validation';
import type { FileView } from '../../shared/validation';
import { refusalMessage } from '../safety/gate';
import { reviewSkillFolder } from '../safety/service';

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
  /** The skill folder (absolute), for checks that read more than SKILL.md. */
  dir?: string;
}) => SkillCheckResult | Promise<SkillCheckResult>;

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

/**
 * The served check with the safety review's gate on top (docs/safety-review.md, "Points of
 * trust"): a skill the review calls "Don't trust" is not served unless the user accepted its
 * content ("Trust anyway", kept in `dataDir`); "Review before trusting" is served with a warning.
 */
export function withSafetyGate(base: SkillCheck, dataDir: string): SkillCheck {
  return async (input) => {
    const result = await base(input);
    if (!result.servable || input.dir === undefined) return result;
    let reviewed;
    try {
      reviewed = await reviewSkillFolder(input.dir, dataDir);
    } catch (error) {
      return {
        servable: false,
        reasons: [
          `The safety review could not read the skill (${error instanceof Error ? error.message : String(error)}).`,
        ],
        warnings: result.warnings,
      };
    }
    const verdict = reviewed.report.verdict;
    if (verdict === 'danger')
      return {
        servable: false,
        reasons: [...result.reasons, `${refusalMessage(reviewed, 'served')} [safety/dont-trust]`],
        warnings: result.warnings,
      };
    if (verdict === 'review')
      return {
        ...result,
        warnings: [
          ...result.warnings,
          `The safety review says "${reviewed.report.headline}": ${reviewed.report.findings.filter((f) => !f.accepted && f.severity !== 'low').length} finding(s). [safety/review]`,
        ],
      };
    return result;
  };
}

/** Parse a SKILL.md through the shared parser (the only frontmatter reader in the project). */
export function parseSkillText(text: string): ParsedSkill {
  return parseSkill(text);
}
