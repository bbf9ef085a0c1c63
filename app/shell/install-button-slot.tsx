/** Where the add-to-desktop button goes (installable web app); the install feature fills it in. */
export function InstallButtonSlot() {
  return null;
}
