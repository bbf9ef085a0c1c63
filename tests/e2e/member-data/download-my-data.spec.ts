import { readFileSync } from 'node:fs';
import yauzl from 'yauzl';
import { expect as baseExpect, test } from '../fixtures.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';

// The archive is prepared in the background: seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 20_000 });

/** The names and texts of a zip's files. */
function unzip(bytes: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const files: Record<string, string> = {};
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (failure, stream) => {
          if (failure) return reject(failure);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files[entry.fileName] = Buffer.concat(chunks).toString('utf8');
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(files));
      zip.readEntry();
    });
  });
}

test.describe('download my data (decision 144)', { tag: '@db' }, () => {
  for (const locale of ['en', 'zh-CN'] as const) {
    const words = {
      en: { title: 'Your data | Playport', row: 'Your data', request: 'Prepare a copy of my data', ready: 'Your archive is ready', download: 'Download (ZIP)' },
      'zh-CN': { title: '你的数据 | Playport', row: '你的数据', request: '准备我的数据副本', ready: '你的压缩包已准备好', download: '下载（ZIP）' },
    }[locale];
    const prefix = locale === 'en' ? '' : '/zh-CN';

    test(`a member asks for a copy in My area, downloads it and finds their data in it (${locale})`, async ({ page, context, request, baseURL }) => {
      test.slow();
      const name = uniqueUsername('export');
      const member = await newMember(request, name, 'export-my-data-1');
      const snake = (await call<{ id: number }>(request, 'GET', '/app/info/?slug=snake')).data;
      expect((await call(request, 'POST', '/member/played/', { token: member.token, body: { app_id: snake.id } })).status).toBe(200);
      expect((await call(request, 'PUT', `/member/favourite/${snake.id}`, { token: member.token })).status).toBeLessThan(300);
      await useSession(context, baseURL!, member.token);

      await page.goto(`${prefix}/user/profile`);
      await page.getByTestId('profile-rows').locator('[data-profile-row="data"]').click();
      await expect(page).toHaveURL(`${prefix}/user/profile/data`);
      await expect(page).toHaveTitle(words.title);
      const panel = page.getByTestId('data-export');
      await page.getByRole('button', { name: words.request }).click();
      await expect(panel.getByText(words.ready)).toBeVisible();

      const link = page.getByRole('link', { name: words.download });
      const downloaded = page.waitForEvent('download');
      await link.click();
      const download = await downloaded;
      expect(download.suggestedFilename()).toMatch(/^Playport-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const files = await unzip(readFileSync((await download.path())!));
      expect(files['README.txt']).toContain('Playport: your data');
      expect(JSON.parse(files['account.json']!)).toMatchObject({ id: member.userInfo.uid, username: name, has_password: true });
      expect(JSON.parse(files['played-games.json']!)).toEqual([expect.objectContaining({ slug: 'snake', play_count: 1 })]);
      expect(JSON.parse(files['favourites.json']!)).toEqual([expect.objectContaining({ slug: 'snake' })]);
      expect(JSON.parse(files['sessions.json']!).length).toBeGreaterThanOrEqual(1);

      // The link is the archive's own: the same link with another signature finds nothing.
      const href = (await link.getAttribute('href'))!;
      expect((await request.get(href)).status()).toBe(200);
      expect((await request.get(href.replace(/signature=[0-9a-f]/, 'signature=x'))).status()).toBe(404);

      // Coming back later, the page shows the archive on offer; asking again the same day gives the same one.
      await page.reload();
      await expect(panel.getByText(words.ready)).toBeVisible();
      await page.getByRole('button', { name: words.request }).click();
      await expect(page.getByRole('link', { name: words.download })).toHaveAttribute('href', href);
    });
  }
});
