import { Outlet } from 'react-router';

/** The auth layout. */
export default function AuthLayout() {
  return (
    <main id="main" className="min-h-dvh">
      <Outlet />
    </main>
  );
}
