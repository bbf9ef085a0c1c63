import { randomInt } from 'node:crypto';
import type { Locale } from '#common/locales.ts';

/** Words of a generated nickname, per locale: an adjective, an animal, then a number from 1000 to 9999. */
const WORDS: Record<Locale, { adjectives: readonly string[]; animals: readonly string[] }> = {
  en: {
    adjectives: [
      'Brave',
      'Bright',
      'Calm',
      'Clever',
      'Cosmic',
      'Daring',
      'Eager',
      'Fancy',
      'Gentle',
      'Happy',
      'Jolly',
      'Lucky',
      'Mighty',
      'Nimble',
      'Noble',
      'Quick',
      'Quiet',
      'Rapid',
      'Shiny',
      'Silent',
      'Sunny',
      'Swift',
      'Witty',
      'Zesty',
    ],
    animals: [
      'Badger',
      'Bear',
      'Cat',
      'Dolphin',
      'Eagle',
      'Falcon',
      'Fox',
      'Gecko',
      'Koala',
      'Lion',
      'Lynx',
      'Otter',
      'Owl',
      'Panda',
      'Parrot',
      'Penguin',
      'Rabbit',
      'Raven',
      'Seal',
      'Tiger',
      'Turtle',
      'Whale',
      'Wolf',
      'Yak',
    ],
  },
  // As many words as in English, so the names are as varied ("快乐熊猫1291").
  'zh-CN': {
    adjectives: [
      '勇敢',
      '明亮',
      '安静',
      '聪明',
      '闪耀',
      '大胆',
      '热情',
      '潇洒',
      '温柔',
      '快乐',
      '欢乐',
      '幸运',
      '强壮',
      '敏捷',
      '高贵',
      '飞快',
      '沉稳',
      '迅捷',
      '灿烂',
      '淡定',
      '阳光',
      '轻快',
      '机智',
      '活泼',
    ],
    animals: [
      '獾',
      '熊',
      '猫咪',
      '海豚',
      '雄鹰',
      '猎鹰',
      '狐狸',
      '壁虎',
      '考拉',
      '狮子',
      '山猫',
      '水獭',
      '猫头鹰',
      '熊猫',
      '鹦鹉',
      '企鹅',
      '兔子',
      '渡鸦',
      '海豹',
      '老虎',
      '海龟',
      '鲸鱼',
      '狼',
      '牦牛',
    ],
  },
};

/**
 * A friendly generated nickname for a new guest in the visitor's language ("SwiftOtter4821",
 * "快乐熊猫1291"); it follows the nickname rules. Nicknames are not unique (the database does not
 * ask it): 24 × 24 × 9,000 names per locale make two guests alike rare, and accounts are told
 * apart by id and username, never by nickname.
 */
export function guestNickname(locale: Locale = 'en'): string {
  const { adjectives, animals } = WORDS[locale];
  const adjective = adjectives[randomInt(adjectives.length)]!;
  const animal = animals[randomInt(animals.length)]!;
  return `${adjective}${animal}${randomInt(1000, 10_000)}`;
}
