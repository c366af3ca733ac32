import { useEffect, useRef } from 'react';
import { useInspectorStore } from './stores';

/**
 * Asks before a stdio connection starts its program: the program runs on this computer with the
 * user's permissions, so the user sees the exact command line and says yes first. Cancel (and
 * Escape) is the default choice.
 */
export function StartProgramDialog() {
  const pending = useInspectorStore((s) => s.pendingProgram);
  if (!pending) return null;
  return <AskToStart label={pending.label} commandLine={pending.commandLine} />;
}

function AskToStart({ label, commandLine }: { label: string; commandLine: string }) {
  const startProgram = useInspectorStore((s) => s.startProgram);
  const declineProgram = useInspectorStore((s) => s.declineProgram);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  return (
    <dialog
      ref={dialog}
      className="open-dialog start-program"
      aria-labelledby="start-program-title"
      aria-describedby="start-program-text"
      onCancel={(e) => {
        e.preventDefault();
        declineProgram();
      }}
    >
      <h2 id="start-program-title">Start a program on this computer?</h2>
      <p id="start-program-text">
        To connect to “{label}”, Skillbench starts this program with your permissions. It can read
        and change your files like any program you run. Start it only if you trust it.
      </p>
      <pre className="start-program-command">
        <code>{commandLine}</code>
      </pre>
      <div className="row">
        <button type="button" autoFocus onClick={declineProgram}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => void startProgram()}>
          Start program
        </button>
      </div>
    </dialog>
  );
}
