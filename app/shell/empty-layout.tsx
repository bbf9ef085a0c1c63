import { Outlet } from 'react-router';

/** The empty layout. */
export default function EmptyLayout() {
  return (
    <main id="main" className="min-h-dvh">
      <Outlet />
    </main>
  );
}
