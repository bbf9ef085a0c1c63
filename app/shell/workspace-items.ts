import { Code, ShieldCheck } from 'lucide-react';
import type { Workspaces } from '#common/api/accounts.schema.ts';
import type { MenuItem } from './menu-items.ts';

/**
 * The ways in for studios and operators (decision 120): the Studio for a member with a studio
 * profile, the Console for an operator. Everyone else finds the developers' page in the footer (on
 * a phone, at the foot of the account drawer). Loaded with the account menu, not with every page.
 */
export function workspaceItems(workspaces: Workspaces | null): MenuItem[] {
  const items: MenuItem[] = [];
  if (workspaces?.studio) items.push({ id: 'studio', to: '/studio', labelKey: 'userMenu.studio', icon: Code });
  if (workspaces?.console) items.push({ id: 'console', to: '/console', labelKey: 'userMenu.console', icon: ShieldCheck });
  return items;
}
