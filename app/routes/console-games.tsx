import { ConsoleGames } from '../features/console/console-games.tsx';

/** /console/games: operators unpublish and feature games (decision 099). */
export default function Page() {
  return <ConsoleGames />;
}
