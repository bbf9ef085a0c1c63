import { randomInt } from 'node:crypto';

const ADJECTIVES = [
  'Brave', 'Bright', 'Calm', 'Clever', 'Cosmic', 'Daring', 'Eager', 'Fancy', 'Gentle', 'Happy', 'Jolly', 'Lucky',
  'Mighty', 'Nimble', 'Noble', 'Quick', 'Quiet', 'Rapid', 'Shiny', 'Silent', 'Sunny', 'Swift', 'Witty', 'Zesty',
];
const ANIMALS = [
  'Badger', 'Bear', 'Cat', 'Dolphin', 'Eagle', 'Falcon', 'Fox', 'Gecko', 'Koala', 'Lion', 'Lynx', 'Otter',
  'Owl', 'Panda', 'Parrot', 'Penguin', 'Rabbit', 'Raven', 'Seal', 'Tiger', 'Turtle', 'Whale', 'Wolf', 'Yak',
];

/** A friendly generated nickname for a new guest ("SwiftOtter4821"); it follows the nickname rules. */
export function guestNickname(): string {
  const adjective = ADJECTIVES[randomInt(ADJECTIVES.length)]!;
  const animal = ANIMALS[randomInt(ANIMALS.length)]!;
  return `${adjective}${animal}${randomInt(1000, 10_000)}`;
}
