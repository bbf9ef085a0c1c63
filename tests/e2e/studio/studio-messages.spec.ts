import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Decision 125: a refusal names the rule and the value, at its field, in the Studio's language.

const PASSWORD = 'Harbour-Lantern-Tricky-9';

test('the Studio says at each field what rule a value broke and which value, in English and Chinese @db', async ({ page, request, baseURL, problems }) => {
  test.slow();
  problems.allow(/422 \(Unprocessable (Entity|Content)\) @ http:\/\/localhost:\d+\/serve\/api\/studio\/games\//);
  const developer = await newMember(request, uniqueUsername('msgs'), PASSWORD);
  expect(
    (await call(request, 'PUT', '/studio/profile/', { token: developer.token, body: { studioName: 'Clear Words', contactEmail: 'team@clear.test' } })).status,
  ).toBe(200);
  const created = await call<{ id: number }>(request, 'POST', '/studio/games/', {
    token: developer.token,
    body: { slug: `clear-${Date.now().toString(36)}`, i18n: { en: { title: 'Clear Words' } } },
  });
  expect(created.status).toBe(201);
  await useSession(page.context(), baseURL!, developer.token);

  for (const [path, expected] of [
    [
      `/studio/games/${created.data.id}`,
      {
        sku: 'An item code is 1–64 lower-case letters, digits, _ . or -, starting with a letter or digit: “gold tiles” is not one.',
        price: 'Enter a whole number: “1.99” is not one.',
        name: 'This field cannot be empty.',
      },
    ],
    [
      `/zh-CN/studio/games/${created.data.id}`,
      {
        sku: '物品代码为 1–64 个小写字母、数字、_ . 或 -，以字母或数字开头：“gold tiles”不符合。',
        price: '请输入整数：“1.99”不是整数。',
        name: '此项不能为空。',
      },
    ],
  ] as const) {
    await page.goto(path);
    await hydrated(page);
    const form = page.getByTestId('studio-game-form');
    await form.getByTestId('studio-items').getByRole('button').last().click();
    await form.locator('input[name="item-0-sku"]').fill('gold tiles');
    await form.locator('input[name="item-0-price"]').fill('1.99');
    await page.getByTestId('studio-game-save').click();
    for (const [field, text] of Object.entries(expected)) {
      const input = field === 'name' ? form.locator('input[name="item-0-name-en"]') : form.locator(`input[name="item-0-${field}"]`);
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      const described = (await input.getAttribute('aria-describedby'))!.split(' ')[0]!;
      await expect(page.locator(`[id="${described}"]`)).toHaveText(text);
    }
  }
});
