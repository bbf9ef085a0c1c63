import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

/**
 * Every localised route lives under the optional `:lang?` segment, so it exists without a
 * prefix (English), under /en and under /zh-CN; routes/locale.tsx rejects other prefixes.
 */
export default [
  route(':lang?', 'routes/locale.tsx', [
    layout('shell/default-layout.tsx', [
      index('routes/home.tsx', { id: 'home' }),
      route('pwa', 'routes/home.tsx', { id: 'pwa' }),
    ]),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
