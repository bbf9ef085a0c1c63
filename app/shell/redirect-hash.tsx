import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';

function isRedirect(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { _isRedirect?: unknown })._isRedirect === true;
}

/**
 * Spec section 2: a server redirect without a hash keeps the hash the visitor asked for. Browsers
 * do this for full page loads; client navigations lose it (the data request carries no hash),
 * so it is put back here after the router followed the redirect.
 */
export function RedirectHash() {
  const navigation = useNavigation();
  const location = useLocation();
  const navigate = useNavigate();
  const wanted = useRef('');

  useEffect(() => {
    const target = navigation.location;
    if (navigation.state !== 'idle' && target && !isRedirect(target.state)) wanted.current = target.hash;
  }, [navigation.state, navigation.location]);

  useEffect(() => {
    const hash = wanted.current;
    wanted.current = '';
    if (hash && !location.hash && isRedirect(location.state)) {
      void navigate({ pathname: location.pathname, search: location.search, hash }, { replace: true });
    }
  }, [location, navigate]);

  return null;
}
