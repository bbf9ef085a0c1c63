import { Outlet } from 'react-router';
import { DefaultShell } from './default-shell.tsx';

/** The default layout: most pages. */
export default function DefaultLayout() {
  return (
    <DefaultShell>
      <Outlet />
    </DefaultShell>
  );
}
