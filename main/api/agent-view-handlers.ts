import { DEFAULT_CONTEXT_BUDGET } from '../../shared/agent-view';
import { claudeCodeSection } from '../../shared/agent-view/claude-code-list';
import { codexSection } from '../../shared/agent-view/codex-list';
import { geminiSection } from '../../shared/agent-view/gemini-list';
import type { CodexCatalogEntry, GeminiCatalogEntry } from '../../shared/agent-view';
import { ok, type AgentCatalogView, type ApiHandlers } from '../../shared/ipc/contract';
import { evalsFrom, gatherCatalog, type AgentSources } from '../agent-view/service';
import { mcpServeCheck, withSafetyGate } from '../mcp-server/skill-check';
import type { ApiDeps } from './services';

type AgentViewChannels = 'agentView.catalog' | 'agentView.evals';

/** What the agent sees: the channels over main/agent-view (docs/agent-view.md). */
export function createAgentViewHandlers(deps: ApiDeps): Pick<ApiHandlers, AgentViewChannels> {
  /** The open library folders and the inspector's connected servers, in the order they came. */
  async function sources(served = false): Promise<AgentSources> {
    const connected = deps.inspector.status().filter((c) => c.state === 'connected');
    return {
      roots: await deps.library.roots(),
      serverSkills: deps.inspector
        .skills()
        .filter((s) => connected.some((c) => c.label === s.server)),
      serverTargets: new Map(connected.map((c) => [c.label, c.target])),
      // Why the library's kept reviews: the note beside a skill and its badge come from one review.
      ...(served
        ? {
            servedCheck: withSafetyGate(mcpServeCheck, deps.userDataDir, (dir) =>
              deps.safety.review(dir),
            ),
          }
        : {}),
    };
  }
  return {
    'agentView.catalog': async () => {
      const { catalog, problems } = await gatherCatalog(await sources(true));
      const limit = (await deps.settings.get()).contextBudget ?? DEFAULT_CONTEXT_BUDGET;
      const used = catalog.footprint.block.tokens;
      const view: AgentCatalogView = {
        xml: catalog.xml,
        skills: catalog.skills.map(({ body: _body, ...rest }) => rest),
        collisions: catalog.collisions,
        userOnly: catalog.userOnly.map(({ body: _body, ...rest }) => rest),
        footprint: catalog.footprint,
        claudeCode:
          catalog.claudeCode.length === 0
            ? ''
            : claudeCodeSection(catalog.claudeCode.map((c) => c.line)),
        codex: codexView(catalog.codex),
        gemini: geminiView(catalog.gemini),
        problems,
        budget: { limit, used, over: used > limit },
      };
      return ok(view);
    },
    'agentView.evals': async ({ threshold }) => {
      const { problems: _problems, ...report } = await evalsFrom(await sources(), threshold);
      return ok(report);
    },
  };
}

/** Codex's part of the view: its section for the listed skills, and why the others are not. */
function codexView(entries: readonly CodexCatalogEntry[]): AgentCatalogView['codex'] {
  const listed = entries.flatMap((e) =>
    'line' in e && e.root !== undefined && e.file !== undefined
      ? [{ root: e.root, file: e.file, line: e.line }]
      : [],
  );
  return {
    section: listed.length === 0 ? '' : codexSection(listed),
    left: entries.flatMap((e) =>
      'unlisted' in e
        ? [{ location: e.location, why: e.unlisted }]
        : 'skipped' in e
          ? [{ location: e.location, why: e.why }]
          : [],
    ),
  };
}

/**
 * Gemini CLI's part of the view: its list of the skills it loads, and why the others are not in
 * it. Skills that share a name are all set apart: Gemini CLI lists one of them, and which one
 * depends on the order its file search finds them.
 */
function geminiView(entries: readonly GeminiCatalogEntry[]): AgentCatalogView['gemini'] {
  // Why `?? ''`: Gemini CLI never loads a skill without a description (the type is shared with
  // OpenCode's, which does).
  const listed = entries.flatMap((e) =>
    'name' in e && e.oneOf === undefined ? [{ ...e, description: e.description ?? '' }] : [],
  );
  return {
    section: listed.length === 0 ? '' : geminiSection(listed),
    left: entries.flatMap((e) =>
      'skipped' in e
        ? [{ location: e.location, why: e.skipped }]
        : e.oneOf !== undefined
          ? [{ location: e.location, why: e.oneOf }]
          : [],
    ),
  };
}
