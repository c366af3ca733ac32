/**
 * What the agent will see, for the app and the CLI (docs/agent-view.md): the merged catalog of
 * library folders and connected servers, selection over it, and the trigger evals of the
 * library's skills run against it.
 */
import {
  buildCatalog,
  runTriggerEvals,
  selectableSkills,
  selectSkills,
  type Catalog,
  type EvalReport,
  type EvalSource,
  type Selection,
  type SelectionInput,
} from '../../shared/agent-view';
import type { InspectedSkill } from '../../shared/inspector/types';
import type { SkillCheck } from '../mcp-server/skill-check';
import type { ReviewMemo } from '../safety/service';
import { gatherLibrary, serverCandidates, type GatheredSkill } from './gather';

/** Where the agent's skills come from. */
export interface AgentSources {
  /** Library folders, in the order they were opened. */
  roots: readonly string[];
  /** Skills discovered on connected servers, in connection order. */
  serverSkills?: readonly InspectedSkill[];
  /** Each server's address or command line, by label (shown beside its skills). */
  serverTargets?: ReadonlyMap<string, string>;
  /**
   * The check `skillbench serve` makes, when the catalog should say which library skills serve
   * would not serve or would hold back (with the safety gate: withSafetyGate); default without the gate.
   */
  servedCheck?: SkillCheck;
  /** Safety reviews kept from an earlier run, for the gate of `servedCheck` (see ReviewMemo). */
  reviews?: ReviewMemo;
}

/** The catalog with what could not be read, and the library skills it came from. */
export interface GatheredCatalog {
  catalog: Catalog;
  problems: { path: string; message: string }[];
  library: GatheredSkill[];
}

/** Gather every source and merge it into the catalog. */
export async function gatherCatalog(sources: AgentSources): Promise<GatheredCatalog> {
  const lib = await gatherLibrary(sources.roots, sources.servedCheck, sources.reviews);
  const catalog = buildCatalog([
    ...lib.skills.map((s) => s.candidate),
    ...serverCandidates(sources.serverSkills ?? [], sources.serverTargets),
  ]);
  return { catalog, problems: lib.problems, library: lib.skills };
}

/** Run the selection baseline over the catalog's skills; what could not be read comes back too. */
export async function selectFrom(
  sources: AgentSources,
  input: SelectionInput,
): Promise<{ selection: Selection; problems: GatheredCatalog['problems'] }> {
  const { catalog, problems } = await gatherCatalog(sources);
  return { selection: selectSkills(selectableSkills(catalog), input), problems };
}

/**
 * Run the trigger evals of every listed library skill against the whole catalog (a server's
 * skill can take a prompt too). A skill hidden by a name collision is not listed, so its
 * examples are not run.
 */
export async function evalsFrom(
  sources: AgentSources,
  threshold?: number,
): Promise<EvalReport & { problems: GatheredCatalog['problems'] }> {
  const { catalog, library, problems } = await gatherCatalog(sources);
  const skills = selectableSkills(catalog);
  const listed = new Set(skills.map((s) => s.location));
  const evals = new Map<string, EvalSource>();
  const notRun: EvalReport['notRun'] = [];
  const hidden = new Map(
    catalog.collisions.flatMap((c) => c.hidden.map((h) => [h.location, h.why] as const)),
  );
  for (const s of library) {
    if (!s.evals) continue;
    if (listed.has(s.candidate.location)) {
      if (!evals.has(s.candidate.name)) evals.set(s.candidate.name, s.evals);
      continue;
    }
    // Why said: the examples exist, but the skill they test is not the one the agent sees.
    const why = hidden.get(s.candidate.location);
    notRun.push({
      name: s.candidate.name,
      ...(s.evals.file !== undefined ? { file: s.evals.file } : {}),
      why: `Its skill ${s.candidate.location} is hidden by a name collision, so the agent never sees it.${why ? ` ${why}` : ''}`,
    });
  }
  return { ...runTriggerEvals(skills, evals, threshold), notRun, problems };
}
