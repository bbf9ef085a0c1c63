import type { Session } from '#common/api/accounts.schema.ts';
import type { PhoneCodeSent } from '#common/api/social.schema.ts';
import type { SocialPlatform } from '#common/social-platforms.ts';
import { api } from '../../lib/api-client.ts';
import { session } from '../accounts/session.ts';
import type { OAuthMessageData } from './oauth-popup.ts';

export type SocialCall = 'login' | 'link';

/** The provider's refusal (the person declined, or the provider failed): nothing to submit. */
export class ProviderDeclined extends Error {
  override name = 'ProviderDeclined';
}

/**
 * Submits a pop-up's answer (or a WhatsApp number and code) to the login or link call and stores
 * the session it answers with (spec section 4: the token is in data.data.token). Sent once: the
 * state and code work once, so a retry could only fail.
 */
export async function submitSocialAnswer(
  call: SocialCall,
  platform: SocialPlatform,
  answer: Omit<OAuthMessageData, 'platform' | 'flow'> & { flow?: string; phone?: string },
): Promise<Session> {
  if (answer.error) throw new ProviderDeclined(answer.error);
  // The document requires the code; an answer without one is refused by the server's 422 like before.
  const body = { ...answer, code: answer.code ?? '', platform, ...(call === 'login' ? { login: 'force' as const } : {}) };
  const { data } = await api.post(`/oauth/${call}/${platform}`, body, { once: true });
  session.adoptRotated(data.data);
  return data.data;
}

/** Sends a sign-in code to a WhatsApp number. */
export async function sendWhatsAppCode(phone: string): Promise<PhoneCodeSent> {
  return (await api.post('/oauth/whatsapp/code/', { phone })).data;
}

/** Unbinds a platform (spec section 4) and takes the account's new user info. */
export async function unbindPlatform(platform: SocialPlatform): Promise<void> {
  const { data } = await api.patch(`/member/social/unbind/${platform}`, { platform });
  session.updateUserInfo(data.userInfo);
}
