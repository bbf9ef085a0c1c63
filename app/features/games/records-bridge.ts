import { LEADERBOARD_LIMIT_MAX, PERIODS, type Period, RECORD_ID_PATTERN, SCORE_MAX, SCORE_MIN } from '#common/game-records.ts';
import { api } from '../../lib/api-client.ts';
import { session } from '../accounts/session.ts';
import { BridgeRefusal } from './game-bridge.ts';

/** The SDK's leaderboard and achievement calls (SDK 1.1; decision 092), answered by the play page. */
export const RECORDS_METHODS = ['leaderboard.submit', 'leaderboard.top', 'leaderboard.around', 'achievements.unlock', 'achievements.list'] as const;

export function isRecordsMethod(method: string): method is (typeof RECORDS_METHODS)[number] {
  return (RECORDS_METHODS as readonly string[]).includes(method);
}

function idOf(value: unknown, what: string): string {
  if (typeof value !== 'string' || !RECORD_ID_PATTERN.test(value))
    throw new BridgeRefusal('validation', `A ${what} id is 1–64 lower-case letters, digits, _ . or -.`);
  return value;
}

function boardQuery(params: Record<string, unknown>): { period: Period; limit: number } {
  const period = params.period ?? 'all-time';
  const limit = params.limit ?? 10;
  if (!(PERIODS as readonly unknown[]).includes(period)) throw new BridgeRefusal('validation', `A period is one of ${PERIODS.join(', ')}.`);
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > LEADERBOARD_LIMIT_MAX)
    throw new BridgeRefusal('validation', `A limit is a whole number from 1 to ${LEADERBOARD_LIMIT_MAX}.`);
  return { period: period as Period, limit: limit as number };
}

export async function answerRecordsCall(appId: number, method: (typeof RECORDS_METHODS)[number], params: Record<string, unknown>): Promise<unknown> {
  if (!session.snapshot().token) await session.signInAnonymously();
  switch (method) {
    case 'leaderboard.submit': {
      const board = idOf(params.board, 'board');
      const { score } = params;
      if (typeof score !== 'number' || !Number.isInteger(score) || score < SCORE_MIN || score > SCORE_MAX)
        throw new BridgeRefusal('validation', 'A score is a whole number.');
      return (await api.post(`/game/leaderboards/${appId}/${board}/scores`, { score })).data;
    }
    case 'leaderboard.top':
      return (await api.get(`/game/leaderboards/${appId}/${idOf(params.board, 'board')}`, { query: boardQuery(params) })).data;
    case 'leaderboard.around':
      return (await api.get(`/game/leaderboards/${appId}/${idOf(params.board, 'board')}/around`, { query: boardQuery(params) })).data;
    case 'achievements.unlock':
      return (await api.post(`/game/achievements/${appId}/${idOf(params.id, 'achievement')}`)).data;
    case 'achievements.list':
      return (await api.get(`/game/achievements/${appId}`)).data;
  }
}
