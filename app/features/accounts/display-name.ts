import type { Translate } from '#common/i18n/translator.ts';
import type { UserInfo } from '#common/api/accounts.schema.ts';

/** How a person is named: the nickname, else "ID:{uid}" (spec section 3). */
export function displayName(userInfo: Pick<UserInfo, 'uid' | 'nickname'>, t: Translate): string {
  return userInfo.nickname || t('accounts:card.idFallback', { uid: userInfo.uid });
}
