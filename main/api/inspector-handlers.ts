import { resolve } from 'node:path';
import { fail, ok, type ApiHandlers, type Result } from '../../shared/ipc/contract';
import { InspectorError } from '../inspector';
import type { ApiDeps } from './services';

type InspectorChannels =
  | 'inspector.connections'
  | 'inspector.saveConnection'
  | 'inspector.removeConnection'
  | 'inspector.connect'
  | 'inspector.reconnect'
  | 'inspector.cancel'
  | 'inspector.disconnect'
  | 'inspector.status'
  | 'inspector.discover'
  | 'inspector.skills'
  | 'inspector.view'
  | 'inspector.tree'
  | 'inspector.readFile'
  | 'inspector.readDirectory'
  | 'inspector.verify'
  | 'inspector.fileStatuses'
  | 'inspector.refresh'
  | 'inspector.report'
  | 'inspector.log'
  | 'inspector.exportLog'
  | 'inspector.saveToLibrary'
  | 'inspector.review'
  | 'inspector.exportForUpload'
  | 'inspector.provenance';

/** Run an inspector call and turn what it throws into a plain-language error result (docs/conventions.md §2 and 7). */
async function attempt<T>(action: () => Promise<T> | T): Promise<Result<T>> {
  try {
    return ok(await action());
  } catch (error) {
    if (error instanceof InspectorError) return fail(error.code, error.message, error.detail);
    const message = error instanceof Error ? error.message : String(error);
    return fail('inspector', `The inspector could not finish: ${message}`);
  }
}

/**
 * The inspector channels, over main/inspector's service. Every value passed back is
 * plain JSON the service built without secrets: saved connections carry `hasSecret` flags only,
 * and statuses name the URL or command line, never a token or a header value.
 */
export function createInspectorHandlers(deps: ApiDeps): Pick<ApiHandlers, InspectorChannels> {
  const { inspector, library } = deps;
  return {
    'inspector.connections': () =>
      attempt(async () => ({
        connections: await inspector.listConnections(),
        secretsStored: deps.secrets.persistent,
      })),
    'inspector.saveConnection': ({ connection, id }) =>
      attempt(() => inspector.saveConnection(connection, id)),
    'inspector.removeConnection': ({ id }) =>
      attempt(async () => ({ removed: await inspector.removeConnection(id) })),
    // Why a stdio command may be started here: the user typed it into the connection form; nothing a
    // server or a skill names is ever run (docs/skills-over-mcp.md §5).
    'inspector.connect': ({ target }) => attempt(() => inspector.connect(target)),
    'inspector.reconnect': ({ label }) => attempt(() => inspector.reconnect(label)),
    'inspector.cancel': ({ label }) =>
      attempt(() => {
        inspector.cancel(label);
        return {};
      }),
    'inspector.disconnect': ({ label }) =>
      attempt(async () => {
        await inspector.disconnect(label);
        return {};
      }),
    'inspector.status': () => attempt(() => ({ connections: inspector.status() })),
    'inspector.discover': ({ label, templateUris, allRoutes }) =>
      attempt(() => inspector.discover(label, { templateUris, allRoutes })),
    'inspector.skills': ({ server }) => attempt(() => ({ skills: inspector.skills(server) })),
    'inspector.view': ({ key, profile }) => attempt(() => inspector.view(key, profile)),
    'inspector.tree': ({ key }) => attempt(() => inspector.tree(key)),
    'inspector.readFile': ({ key, uri }) => attempt(() => inspector.readFile(key, uri)),
    'inspector.readDirectory': ({ key, uri, cursor }) =>
      attempt(() => inspector.readDirectory(key, uri, cursor)),
    'inspector.verify': ({ key, walk }) => attempt(() => inspector.verify(key, { walk })),
    'inspector.fileStatuses': ({ key }) => attempt(() => ({ files: inspector.fileStatuses(key) })),
    'inspector.refresh': ({ key }) => attempt(() => inspector.refresh(key)),
    'inspector.report': ({ label }) =>
      attempt(async () => {
        const report = await inspector.report(label);
        return {
          report,
          markdown: inspector.reportMarkdown(report),
          json: inspector.reportJson(report),
        };
      }),
    'inspector.log': ({ seq, ...filter }) =>
      attempt(() => {
        if (seq === undefined) return { entries: inspector.log(filter) };
        const entry = inspector.log({ sinceSeq: seq - 1 }).find((e) => e.seq === seq);
        return { entries: entry ? [entry] : [] };
      }),
    'inspector.exportLog': (filter) => attempt(() => ({ json: inspector.exportLog(filter) })),
    'inspector.review': ({ key }) => attempt(() => inspector.review(key)),
    'inspector.saveToLibrary': async ({ key, libraryRoot, trust, onConflict }) => {
      // Why: the renderer picks the destination, but main writes only into a folder the user opened
      // as a library root, never an arbitrary path a compromised page could name.
      const roots = await library.roots();
      const root = roots.find((r) => resolve(r) === resolve(libraryRoot));
      if (!root)
        return fail(
          'outside-library',
          `${libraryRoot} is not one of your library folders. Open it in Skillbench first, then save again.`,
        );
      return attempt(() => inspector.saveToLibrary(key, root, trust, onConflict));
    },
    'inspector.exportForUpload': ({ key }) =>
      attempt(async () => {
        const result = await inspector.exportForUpload(key);
        // Why: the verified copy lives outside every library; the exporter may read exactly this folder.
        if (result.ok) deps.exportable.add(resolve(result.folder));
        return result;
      }),
    'inspector.provenance': () => attempt(async () => ({ records: await inspector.provenance() })),
  };
}
