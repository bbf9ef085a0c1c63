/**
 * The rules of the Studio's play statistics (decisions 103, 104), written once here in code the
 * Studio owns. The database keeps them by triggers (migrations 0025 and 0026, frozen copies: a
 * migration never changes), so that each write of the play page counts in the same statement;
 * `studio-stats.db.test.ts` holds what the triggers keep equal to what these rules count from the
 * raw rows, and `game-stats-rules.test.ts` holds the bucket width equal to the migration's.
 */

/** Times to gameplay are counted in buckets this wide (the Studio's medians are to 100 ms). */
export const GAMEPLAY_BUCKET_MS = 100;

/** A play session as `game_sessions` holds it: a game, the UTC day it started, its player if any. */
export interface PlaySession {
  app_id: number;
  day: string;
  user_id: number | null;
  to_gameplay_ms: number | null;
  play_ms: number;
}

/** The daily rollup, row for row as its four tables hold it, each in key order. */
export interface GameStatsRollup {
  /** Per game and day: plays, their play time, the accounts that played, the accounts whose latest day of play it is. */
  days: { app_id: number; day: string; plays: number; play_ms: number; players: number; last_players: number }[];
  /** Per game, day and bucket of the time to gameplay: the sessions in it (buckets with none are left out). */
  gameplay: { app_id: number; day: string; bucket: number; sessions: number }[];
  /** The (game, day, account) rows the players of a day stand on. */
  dayPlayers: { app_id: number; day: string; user_id: number }[];
  /** The (game, account, latest day) rows the last players stand on. */
  players: { app_id: number; user_id: number; last_day: string }[];
}

const byKeys =
  <T>(...keys: (keyof T)[]) =>
  (a: T, b: T): number => {
    for (const key of keys) if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
    return 0;
  };

/** The rollup the sessions make: a session with no player (a removed account's) counts as a play, not as a player. */
export function gameStatsRollupOf(sessions: readonly PlaySession[]): GameStatsRollup {
  const days = new Map<string, GameStatsRollup['days'][number]>();
  const gameplay = new Map<string, GameStatsRollup['gameplay'][number]>();
  const dayPlayers = new Map<string, GameStatsRollup['dayPlayers'][number]>();
  const players = new Map<string, GameStatsRollup['players'][number]>();
  for (const session of sessions) {
    const { app_id, day, user_id } = session;
    const dayRow = days.get(`${app_id}|${day}`) ?? { app_id, day, plays: 0, play_ms: 0, players: 0, last_players: 0 };
    dayRow.plays += 1;
    dayRow.play_ms += session.play_ms;
    days.set(`${app_id}|${day}`, dayRow);
    if (session.to_gameplay_ms !== null) {
      const bucket = Math.floor(session.to_gameplay_ms / GAMEPLAY_BUCKET_MS);
      const bucketRow = gameplay.get(`${app_id}|${day}|${bucket}`) ?? { app_id, day, bucket, sessions: 0 };
      bucketRow.sessions += 1;
      gameplay.set(`${app_id}|${day}|${bucket}`, bucketRow);
    }
    if (user_id === null) continue;
    dayPlayers.set(`${app_id}|${day}|${user_id}`, { app_id, day, user_id });
    const latest = players.get(`${app_id}|${user_id}`);
    if (!latest || latest.last_day < day) players.set(`${app_id}|${user_id}`, { app_id, user_id, last_day: day });
  }
  for (const { app_id, day } of dayPlayers.values()) days.get(`${app_id}|${day}`)!.players += 1;
  for (const { app_id, last_day } of players.values()) days.get(`${app_id}|${last_day}`)!.last_players += 1;
  return {
    days: [...days.values()].sort(byKeys('app_id', 'day')),
    gameplay: [...gameplay.values()].sort(byKeys('app_id', 'day', 'bucket')),
    dayPlayers: [...dayPlayers.values()].sort(byKeys('app_id', 'day', 'user_id')),
    players: [...players.values()].sort(byKeys('app_id', 'user_id')),
  };
}

/** A row of an account's played history (`played_games`): a game and the first time the account played it. */
export interface FirstPlay {
  user_id: number;
  app_id: number;
  first_played_at: string;
}

/** Each account's first game (decision 104): its earliest first play, a tie going to the lower game id; in account order. */
export function firstGamesOf(history: readonly FirstPlay[]): { id: number; first_app_id: number; first_played_at: string }[] {
  const first = new Map<number, { id: number; first_app_id: number; first_played_at: string }>();
  for (const row of history) {
    const known = first.get(row.user_id);
    if (!known || row.first_played_at < known.first_played_at || (row.first_played_at === known.first_played_at && row.app_id < known.first_app_id)) {
      first.set(row.user_id, { id: row.user_id, first_app_id: row.app_id, first_played_at: row.first_played_at });
    }
  }
  return [...first.values()].sort((a, b) => a.id - b.id);
}
