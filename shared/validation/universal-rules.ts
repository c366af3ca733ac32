import { isMap, isSeq } from 'yaml';
import { validateJsonSchemaDocument } from '../schemas/validators';
import { codePointLength, textOf } from '../skill/yaml-strings';
import type { RuleContext } from './rule-context';
import { jsonEqual } from '../json/values';

const TOOL_NAME = /^[a-z0-9-]+$/;
const RUNTIME_EXT: Record<string, readonly string[]> = {
  python: ['.py'],
  node: ['.js', '.mjs'],
  bash: ['.sh'],
};
const OVERBROAD = new Set(['*', '**', '**/*', '/', '/**', '/**/*']);

/** Universal Agent Skill 2.1 tool rules, tools.json freshness, overbroad permissions (docs/skill-format.md §2 `universal-2.1`). */
export function universalRules(ctx: RuleContext): void {
  if (ctx.profile !== 'universal-2.1' || !ctx.data || !ctx.parsed.document) return;
  const doc = ctx.parsed.document;
  const fv = ctx.fileView;
  const at = (path: (string | number)[]) => {
    const n = doc.getIn(path, true);
    return (
      ctx.parsed.nodeSpan(n) ?? {
        start: ctx.parsed.frontmatter?.openStart ?? 0,
        end: ctx.parsed.frontmatter?.openEnd ?? 0,
      }
    );
  };
  const tools = ctx.data['tools'];
  if (Array.isArray(tools)) {
    tools.forEach((tool: unknown, i) => {
      if (!tool || typeof tool !== 'object' || Array.isArray(tool)) return;
      const t = tool as Record<string, unknown>;
      const name = t['name'];
      if (typeof name === 'string' && (!TOOL_NAME.test(name) || codePointLength(name) > 64)) {
        ctx.report('tools/name', {
          message: `The tool name "${name}" may only use lowercase letters, digits and hyphens (at most 64).`,
          detail: `tools[${i}].name must match ^[a-z0-9-]+$ and be ≤ 64 characters`,
          ...at(['tools', i, 'name']),
          pointer: `/tools/${i}/name`,
        });
      }
      const schema = t['input_schema'];
      if (schema !== undefined) {
        const problems = validateJsonSchemaDocument(schema);
        const notObject =
          !schema ||
          typeof schema !== 'object' ||
          (schema as Record<string, unknown>)['type'] !== 'object';
        if (problems.length > 0 || notObject) {
          ctx.report('tools/input-schema', {
            message:
              notObject && problems.length === 0
                ? `The input_schema of tool ${textOf(name ?? i)} must describe an object ("type: object").`
                : `The input_schema of tool ${textOf(name ?? i)} is not a valid JSON Schema.`,
            detail:
              problems.length > 0
                ? problems.slice(0, 3).join('; ')
                : 'input_schema.type must be "object"',
            ...at(['tools', i, 'input_schema']),
            pointer: `/tools/${i}/input_schema`,
          });
        } else if ((schema as Record<string, unknown>)['additionalProperties'] !== false) {
          ctx.report('tools/input-schema-open', {
            message: `The input_schema of tool ${textOf(name ?? i)} accepts any extra argument. Add "additionalProperties: false".`,
            detail: 'input_schema without additionalProperties: false',
            ...at(['tools', i, 'input_schema']),
            pointer: `/tools/${i}/input_schema/additionalProperties`,
          });
        }
      }
      const impl = t['implementation'];
      if (impl && typeof impl === 'object' && !Array.isArray(impl)) {
        const runtime = (impl as Record<string, unknown>)['runtime'];
        const entry = (impl as Record<string, unknown>)['entrypoint'];
        const exts = typeof runtime === 'string' ? RUNTIME_EXT[runtime] : undefined;
        if (exts && typeof entry === 'string') {
          if (!exts.some((x) => entry.endsWith(x))) {
            const ts = runtime === 'node' && /\.[cm]?ts$/.test(entry);
            ctx.report('tools/entrypoint', {
              message: ts
                ? `The entrypoint "${entry}" is TypeScript; the node runtime runs JavaScript. Point it at the compiled .js or .mjs file.`
                : `The entrypoint "${entry}" does not match the ${runtime} runtime; it must end in ${exts.join(' or ')}.`,
              detail: `tools[${i}].implementation: runtime ${runtime} requires ${exts.join('|')}`,
              ...at(['tools', i, 'implementation', 'entrypoint']),
              pointer: `/tools/${i}/implementation/entrypoint`,
            });
          } else if (fv) {
            const rel = entry.replace(/^\.\//, '');
            if (!fv.entries.some((e) => e.kind === 'file' && e.path === rel)) {
              ctx.report('tools/entrypoint-missing', {
                message: `The entrypoint file "${entry}" of tool ${textOf(name ?? i)} does not exist in the skill folder.`,
                detail: `tools[${i}].implementation.entrypoint not found`,
                ...at(['tools', i, 'implementation', 'entrypoint']),
                pointer: `/tools/${i}/implementation/entrypoint`,
                file: rel,
              });
            }
          }
        }
      }
    });
  }
  const toolsJson = fv?.texts?.['tools.json'];
  if (toolsJson !== undefined) {
    let parsed: unknown;
    let error: string | null = null;
    try {
      parsed = JSON.parse(toolsJson);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const fromFile =
      parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'tools' in parsed
        ? (parsed as Record<string, unknown>)['tools']
        : parsed;
    if (error !== null || !jsonEqual(fromFile, tools ?? [])) {
      ctx.report('tools/tools-json-stale', {
        message:
          'tools.json does not match the tools in the frontmatter. Regenerate tools.json from SKILL.md.',
        detail: error ?? 'tools.json differs from frontmatter tools (stale)',
        ...(isSeq(doc.get('tools', true)) ? at(['tools']) : {}),
        file: 'tools.json',
      });
    }
  }
  const perms = doc.get('permissions', true);
  if (isMap(perms)) {
    const lists: [string[], string][] = [
      [['permissions', 'filesystem', 'read'], 'read files'],
      [['permissions', 'filesystem', 'write'], 'write files'],
      [['permissions', 'network', 'outbound'], 'reach hosts'],
    ];
    for (const [path, what] of lists) {
      const v = doc.getIn(path);
      if (!Array.isArray(v) && !isSeq(v)) continue;
      const items = isSeq(v) ? v.toJSON() : (v as unknown[]);
      items.forEach((item, i) => {
        if (typeof item !== 'string' || !OVERBROAD.has(item.trim())) return;
        ctx.report('permissions/overbroad', {
          message: `The permission "${item}" lets the skill ${what} everywhere. List only what it needs.`,
          detail: `${path.join('.')}[${i}] is overbroad`,
          ...at([...path, i]),
          pointer: `/${path.join('/')}/${i}`,
        });
      });
    }
  }
}
