import type { AgentViewState } from '../features/agent-view/agent-view-store';
import type { EditorState } from '../features/editor/editor-store';
import type { InspectorState } from '../features/inspector/inspector-store';
import type { LibraryState } from '../features/library/library-store';
import type { ServerState } from '../features/server/server-store';
import type { Subscribe } from '../platform/api';

/** The stores that main's events update, each with the actions the events call. */
export interface EventTargets {
  editor: () => Pick<EditorState, 'externalChange' | 'folderChanged'>;
  library: () => Pick<LibraryState, 'refresh'>;
  server: () => Pick<ServerState, 'serverChanged' | 'requestLogged'>;
  inspector: () => Pick<
    InspectorState,
    'connectionChanged' | 'logged' | 'fileChecked' | 'verified'
  >;
  /** What the agent sees: read again when skills change on disk or on a server. */
  agentView: () => Pick<AgentViewState, 'refresh'>;
}

/**
 * The one place that listens to main: every event goes to the store it concerns. Returns the
 * function that stops listening.
 */
export function routeEvents(subscribe: Subscribe, to: EventTargets): () => void {
  const offs = [
    subscribe('skill.changed', ({ path, version }) => {
      void to.editor().externalChange(path, version);
      void to.agentView().refresh();
    }),
    // Why: a large library's first listing arrives before its checks; this event says they are done.
    subscribe('library.changed', () => {
      void to.library().refresh();
      // Why: a file added or removed beside the open SKILL.md changes what its links find.
      void to.editor().folderChanged();
      void to.agentView().refresh();
    }),
    // Why: the catalog holds the skills of connected servers; a discovery or a disconnect changes it.
    subscribe('inspector.discovered', () => {
      void to.agentView().refresh();
    }),
    subscribe('server.changed', () => {
      void to.server().serverChanged();
    }),
    subscribe('server.requested', (entry) => to.server().requestLogged(entry)),
    subscribe('inspector.changed', (status) => {
      to.inspector().connectionChanged(status);
      if (status.state === 'disconnected') void to.agentView().refresh();
    }),
    subscribe('inspector.logged', (entry) => to.inspector().logged(entry)),
    subscribe('inspector.fileChecked', ({ key, verification }) =>
      to.inspector().fileChecked(key, verification),
    ),
    subscribe('inspector.verified', (verification) => to.inspector().verified(verification)),
  ];
  return () => {
    for (const off of offs) off();
  };
}
