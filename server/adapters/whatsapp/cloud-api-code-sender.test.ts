import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWhatsAppCloudApi } from '#server/testing/identity-providers.ts';
import { CloudApiCodeSender } from './cloud-api-code-sender.ts';
import { CodeSendFailure } from './code-sender.ts';

/* The WhatsApp Cloud API sender against its loopback stand-in: the authentication template, and its failures. */

const CLOUD = { phoneNumberId: '1098765', accessToken: 'whatsapp-test-token' };

describe('WhatsApp Cloud API sender', () => {
  let cloud: Awaited<ReturnType<typeof startWhatsAppCloudApi>>;
  beforeAll(async () => {
    cloud = await startWhatsAppCloudApi(CLOUD);
  });
  afterAll(() => cloud?.stop());

  const sender = (accessToken = CLOUD.accessToken) =>
    new CloudApiCodeSender({
      sender: 'cloud',
      apiUrl: cloud.url,
      phoneNumberId: CLOUD.phoneNumberId,
      accessToken,
      template: 'sign_in_code',
      templateLanguage: 'en',
    });

  it('sends the code in the template’s body and its copy-code button, to the number without its plus', async () => {
    await sender().send('+447700900123', '048213');
    expect(cloud.messages.at(-1)).toEqual({ to: '447700900123', code: '048213', template: 'sign_in_code' });
  });

  it('fails with CodeSendFailure when Meta refuses the token, answers 5xx, or cannot be reached', async () => {
    await expect(sender('wrong-token').send('+447700900123', '111111')).rejects.toThrow(/401: 190 Invalid OAuth access token/);
    cloud.failNext();
    await expect(sender().send('+447700900123', '111111')).rejects.toThrow(CodeSendFailure);
    const away = new CloudApiCodeSender({
      sender: 'cloud',
      apiUrl: 'http://127.0.0.1:1',
      phoneNumberId: CLOUD.phoneNumberId,
      accessToken: CLOUD.accessToken,
      template: 'sign_in_code',
      templateLanguage: 'en',
    });
    await expect(away.send('+447700900123', '111111')).rejects.toThrow(/unreachable/);
  });
});
