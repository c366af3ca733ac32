import { ViewTabs } from '../../ui/ViewTabs';
import { useEffect, useState } from 'react';
import { useInspectorStore } from './stores';
import { ConnectionForm } from './ConnectionForm';
import { ConnectionsPanel } from './ConnectionsPanel';
import { DiscoveryPanel } from './DiscoveryPanel';
import { InspectorSkillView } from './InspectorSkillView';
import { ProtocolLogPanel } from './ProtocolLogPanel';
import { ReportCardPanel } from './ReportCardPanel';
import { StartProgramDialog } from './StartProgramDialog';
import './inspector.css';

type Section = 'skills' | 'report' | 'log';

const SECTIONS: { id: Section; label: string }[] = [
  { id: 'skills', label: 'Skill' },
  { id: 'report', label: 'Report card' },
  { id: 'log', label: 'Protocol log' },
];

/** The inspector: connect to remote skill servers, browse and verify their skills, check the server, keep a skill. */
export function InspectorView() {
  const message = useInspectorStore((s) => s.message);
  const dismissMessage = useInspectorStore((s) => s.dismissMessage);
  const [section, setSection] = useState<Section>('skills');

  useEffect(() => {
    // Live updates arrive through the app's one event listener; this loads what is there now.
    void useInspectorStore.getState().loadConnections();
  }, []);

  return (
    <section className="inspector" aria-label="Inspector" data-state="ready">
      <StartProgramDialog />
      <aside className="insp-side" aria-label="Servers">
        <ConnectionForm />
        <ConnectionsPanel />
        <DiscoveryPanel />
      </aside>
      <div className="insp-main">
        {message ? (
          <div
            role={message.kind === 'error' ? 'alert' : 'status'}
            className={`banner ${message.kind === 'error' ? 'error' : 'insp-info'}`}
          >
            <span>{message.text}</span>
            {message.detail ? (
              <details>
                <summary>Details</summary>
                <code>{message.detail}</code>
              </details>
            ) : null}
            <button
              type="button"
              onClick={dismissMessage}
              aria-label="Dismiss the inspector message"
            >
              ✕
            </button>
          </div>
        ) : null}
        <ViewTabs
          label="Inspector sections"
          value={section}
          options={SECTIONS}
          onChange={setSection}
          className="insp-tabs"
        />
        <div className="insp-content">
          {section === 'skills' ? (
            <InspectorSkillView />
          ) : section === 'report' ? (
            <ReportCardPanel />
          ) : (
            <ProtocolLogPanel />
          )}
        </div>
      </div>
    </section>
  );
}
