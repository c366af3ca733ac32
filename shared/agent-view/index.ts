/**
 * What the agent will see (docs/agent-view.md): the merged `<available_skills>` catalog, the
 * selection baseline with its reasons, trigger evals, each host's view of a skill and the
 * context footprint. Pure code, run by main (catalog, CLI) and the renderer (tester, hosts).
 */
export * from './catalog';
export * from './evals';
export * from './hosts';
export * from './select';
export * from './text';
export * from './tools';
export * from './triggers';
