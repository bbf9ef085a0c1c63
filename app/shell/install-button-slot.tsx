import { InstallButton } from '../features/install/install-button.tsx';

/** Where the add-to-desktop button goes (installable web app). */
export function InstallButtonSlot() {
  return <InstallButton />;
}
