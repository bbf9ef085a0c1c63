import { Outlet } from 'react-router';

/** The empty layout (/play, /oauth): nothing around the page, which owns the whole viewport. */
export default function EmptyLayout() {
  return (
    <main id="main" className="min-h-dvh">
      <Outlet />
    </main>
  );
}
