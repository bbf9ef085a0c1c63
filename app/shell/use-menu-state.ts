import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * Open state of a menu that closes on route change (spec section 4): the menu counts as open
 * only for the location it was opened on, so any navigation closes it without an effect.
 */
export function useMenuState(): [boolean, (open: boolean) => void] {
  const { key } = useLocation();
  const [state, setState] = useState({ open: false, key });
  const setOpen = useCallback((open: boolean) => setState({ open, key }), [key]);
  return [state.open && state.key === key, setOpen];
}
