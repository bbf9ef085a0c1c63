import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

/**
 * Every localised route lives under the optional `:lang?` segment, so it exists without a
 * prefix (English), under /en and under /zh-CN; routes/locale.tsx rejects other prefixes.
 * OAuth pop-up routes have no locale handling and use the empty layout.
 */
export default [
  layout('shell/empty-layout.tsx', { id: 'oauth-layout' }, [
    route('oauth/:platform/link', 'routes/oauth-link.tsx', { id: 'oauth-link' }),
    route('oauth/:platform/callback', 'routes/oauth-callback.tsx', { id: 'oauth-callback' }),
  ]),
  route(':lang?', 'routes/locale.tsx', [
    layout('shell/auth-layout.tsx', [
      route('login', 'routes/login.tsx'),
      route('login/forgot', 'routes/login-forgot.tsx'),
      route('login/reset', 'routes/login-link.tsx', { id: 'login-reset' }),
      route('login/not-me', 'routes/login-link.tsx', { id: 'login-not-me' }),
    ]),
    layout('shell/empty-layout.tsx', [
      route('play/:slug', 'routes/play.tsx'),
      route('qa/:slug', 'routes/qa.tsx'),
      route('payment/sandbox', 'routes/payment-sandbox.tsx'),
    ]),
    layout('shell/default-layout.tsx', [
      index('routes/home.tsx', { id: 'home' }),
      route('pwa', 'routes/home.tsx', { id: 'pwa' }),
      route('settings', 'routes/settings.tsx'),
      route('test', 'routes/test.tsx'),
      route('search', 'routes/search.tsx'),
      route('app/:slug', 'routes/app.tsx'),
      route('categories/:slug?', 'routes/categories.tsx'),
      route('article/post/:id', 'routes/article-post.tsx'),
      route('article/*', 'routes/article.tsx'),
      route('about', 'routes/static-page.tsx', { id: 'about' }),
      route('terms', 'routes/static-page.tsx', { id: 'terms' }),
      route('cookie-policy', 'routes/static-page.tsx', { id: 'cookie-policy' }),
      route('privacy-policy', 'routes/static-page.tsx', { id: 'privacy-policy' }),
      route('account-deletion', 'routes/account-deletion.tsx'),
      route('page/:slug', 'routes/static-page.tsx', { id: 'page' }),
      route('user', 'routes/user.tsx'),
      route('user/profile', 'routes/user-profile.tsx', [
        index('routes/user-profile-index.tsx'),
        route('email', 'routes/user-profile-email.tsx'),
        route('phone', 'routes/user-profile-phone.tsx'),
        route('avatar', 'routes/user-profile-avatar.tsx'),
        route('social', 'routes/user-profile-social.tsx'),
        route('passkey', 'routes/user-profile-passkey.tsx'),
        route('sessions', 'routes/user-profile-sessions.tsx'),
        route('nickname', 'routes/user-profile-nickname.tsx'),
        route('password', 'routes/user-profile-password.tsx'),
        route('two-factor', 'routes/user-profile-two-factor.tsx'),
        route('data', 'routes/user-profile-data.tsx'),
        route('delete', 'routes/user-profile-delete.tsx'),
      ]),
      // Studio: developers' games, builds, statistics and webhooks (decision 095).
      route('studio', 'routes/studio.tsx', [
        index('routes/studio-index.tsx'),
        route('profile', 'routes/studio-profile.tsx'),
        route('keys', 'routes/studio-keys.tsx'),
        route('earnings', 'routes/studio-earnings.tsx'),
        route('earnings/:currency/:month', 'routes/studio-earnings-statement.tsx'),
        route('earnings/payouts', 'routes/studio-earnings-payouts.tsx'),
        route('games/new', 'routes/studio-game-new.tsx'),
        route('games/:gameId', 'routes/studio-game.tsx', [
          index('routes/studio-game-details.tsx'),
          route('builds', 'routes/studio-game-builds.tsx'),
          route('stats', 'routes/studio-game-stats.tsx'),
          route('webhooks', 'routes/studio-game-webhooks.tsx'),
        ]),
      ]),
      // Console: the operators' pages (decision 095).
      route('console', 'routes/console.tsx', [
        index('routes/console-index.tsx'),
        route('reviews', 'routes/console-reviews.tsx'),
        route('games', 'routes/console-games.tsx'),
        route('articles', 'routes/console-articles.tsx'),
        route('articles/:articleId', 'routes/console-article-edit.tsx'),
        route('pages', 'routes/console-pages.tsx'),
        route('pages/new', 'routes/console-page-edit.tsx', { id: 'console-page-new' }),
        route('pages/:slug', 'routes/console-page-edit.tsx'),
        route('orders', 'routes/console-orders.tsx'),
        route('payouts', 'routes/console-payouts.tsx'),
        route('members', 'routes/console-members.tsx'),
        route('acquisition', 'routes/console-acquisition.tsx'),
        route('audit', 'routes/console-audit.tsx'),
        route('reconciliation', 'routes/console-reconciliation.tsx'),
      ]),
    ]),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
