import { ConsolePageList } from '../features/console/content-lists.tsx';

/** /console/pages: the static pages (decision 099). */
export default function Page() {
  return <ConsolePageList />;
}
