import { ConsoleArticleList } from '../features/console/content-lists.tsx';

/** /console/articles: every article, scheduled ones included (decision 099). */
export default function Page() {
  return <ConsoleArticleList />;
}
