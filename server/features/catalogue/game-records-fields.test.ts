import { describe, expect, it } from 'vitest';
import { AchievementsField, declaredBoard, LeaderboardsField, recordProblems } from './game-records-fields.ts';

const names = { en: { name: 'Points' }, 'zh-CN': { name: '积分' } };

describe('the leaderboards and achievements of a catalogue entry', () => {
  it('fills in the defaults and stores a board as declared', () => {
    const [board] = LeaderboardsField.parse([{ id: 'points', order: 'desc', max: 100, i18n: names }]);
    expect(declaredBoard(board!)).toEqual({
      id: 'points',
      order: 'desc',
      format: 'number',
      min: 0,
      max: 100,
      periods: ['all-time'],
      backendOnly: false,
      names,
    });
  });

  it('refuses what a game could not keep: bounds the wrong way round, a missing language, bad ids and orders, bounds past 32 bits', () => {
    const bad = [
      { id: 'a', order: 'desc', min: 10, max: 10, i18n: names },
      { id: 'b', order: 'desc', max: 10, i18n: { en: { name: 'B' } } },
      { id: 'Bad Id', order: 'desc', max: 10, i18n: names },
      { id: 'c', order: 'up', max: 10, i18n: names },
      { id: 'd', order: 'asc', max: 2 ** 31, i18n: names },
      { id: 'e', order: 'asc', max: 10, periods: ['monthly'], i18n: names },
    ];
    for (const board of bad) expect(LeaderboardsField.safeParse([board]).success, JSON.stringify(board)).toBe(false);
    expect(AchievementsField.safeParse([{ id: 'x', i18n: { en: { name: 'X', description: 'd' }, 'zh-CN': { name: 'X' } } }]).success).toBe(false);
  });

  it('names ids listed twice', () => {
    const boards = LeaderboardsField.parse([
      { id: 'p', order: 'desc', max: 1, i18n: names },
      { id: 'p', order: 'asc', max: 1, i18n: names },
    ]);
    const achievement = { id: 'w', i18n: { en: { name: 'W', description: 'd' }, 'zh-CN': { name: 'W', description: 'd' } } };
    expect(recordProblems('apps/x.yaml', boards, AchievementsField.parse([achievement, achievement]))).toEqual([
      'apps/x.yaml: leaderboards: id "p" is listed more than once',
      'apps/x.yaml: achievements: id "w" is listed more than once',
    ]);
  });
});
