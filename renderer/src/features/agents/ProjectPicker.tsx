import { useState, type ReactNode } from 'react';
import { useNoticesStore } from '../../app/state/stores';
import { FolderPickerDialog } from '../../ui/FolderPickerDialog';
import { useAgentsStore } from './stores';

/**
 * Adding a project folder, from the Agents tab or the install dialog: the system's folder dialog
 * where the window has one, else the folder picker. `choose` starts it; `picker` is the dialog to
 * render while it is open; `onAdded` hears the folder added.
 */
export function useProjectPicker(
  onAdded: (path: string) => void,
  initialPath = '',
): { choose: () => void; picker: ReactNode } {
  const { pickProject, addProject, browse, overview } = useAgentsStore();
  const [open, setOpen] = useState(false);
  const choose = () =>
    void pickProject().then((added) => {
      if (added === undefined) setOpen(true);
      else if (added !== null) onAdded(added);
    });
  const picker = open ? (
    <FolderPickerDialog
      title="Add a project folder"
      chooseLabel="Add this project"
      initialPath={initialPath || (overview?.projects[0] ?? '')}
      browse={browse}
      onChoose={async (path) => {
        if (!(await addProject(path)))
          return useNoticesStore.getState().error?.message ?? `${path} could not be added.`;
        onAdded(path);
        return null;
      }}
      onClose={() => setOpen(false)}
    />
  ) : null;
  return { choose, picker };
}
