/**
 * The tool-definition targets of `skillbench pack` (docs/agent-view.md §4): a skill's frontmatter
 * `tools` as MCP `tools/list` entries, Claude API tools or OpenAI strict function tools. Like the
 * other targets, nothing is written that the destination would refuse: every export is blocked
 * while a tool's input schema is not an object schema (MCP and the Claude API require one), and
 * an OpenAI export while strict mode would refuse a schema.
 */
import { join, resolve } from 'node:path';
import { exportTools, type StrictProblem } from '../../shared/agent-view';
import { TOOL_TARGETS, type ToolTargetId } from '../../shared/projection/targets';
import { parseSkill } from '../../shared/skill';
import { writeFileAtomic } from '../platform/atomic-write';
import { readRegularFileSync } from '../platform/read-file';
import { readSkillFolder } from '../skill-folder';

/** The outcome of packing tool definitions. */
export type ToolPackResult =
  | { status: 'no-tools'; skillName: string }
  | {
      status: 'blocked';
      skillName: string;
      /** Who would refuse them, as a sentence's subject: "OpenAI strict mode", "MCP", "the Claude API". */
      refusedBy: string;
      problems: StrictProblem[];
    }
  | {
      status: 'ready';
      skillName: string;
      json: string;
      count: number;
      /** Entries of the frontmatter's `tools` left out because they have no name. */
      unnamed: number;
      path?: string;
    };

/** Build (and with `out`, write atomically) the tool definitions of the skill in `folder`. */
export async function packToolDefinitions(
  folder: string,
  target: ToolTargetId,
  options: { out?: string; cwd?: string } = {},
): Promise<ToolPackResult> {
  const skill = await readSkillFolder(folder);
  const read = readRegularFileSync(join(skill.dir, skill.skillFileName), 16 * 1024 * 1024);
  const text = read.bytes?.toString('utf8') ?? '';
  const parsed = parseSkill(text);
  const data = parsed.data as Record<string, unknown> | undefined;
  const skillName = typeof data?.['name'] === 'string' ? data['name'] : skill.folderName;
  const definition = TOOL_TARGETS.find((t) => t.id === target);
  const given = exportTools(parsed.data, definition?.format ?? 'mcp');
  if (given.status !== 'ready') return { ...given, skillName };
  const { json, count, unnamed } = given;
  const ready = { status: 'ready', skillName, json, count, unnamed } as const;
  if (options.out === undefined) return ready;
  const path = resolve(options.cwd ?? process.cwd(), options.out);
  await writeFileAtomic(path, json);
  return { ...ready, path };
}
