import type { DeclaredAchievement, DeclaredBoard } from '#common/api/game-records.schema.ts';
import type { ItemKind } from '#server/db/schema.ts';

// The shape of a developer's game's listing as the Studio saves it and the catalogue writes it (decision 140).

/** A game's texts in one locale. */
export type GameTexts = { title: string; summary: string; description: string; instructions: string | null };

/** A developer's game's metadata, as the Studio saves it (and a pending change keeps it, decision 112). */
export interface GameMetadata {
  thumbnail: string;
  cover: string | null;
  screenshots: string[];
  orientation: 'portrait' | 'landscape' | 'any';
  width: number;
  height: number;
  backends: string[];
  leaderboards: DeclaredBoard[];
  achievements: DeclaredAchievement[];
  texts: Record<string, GameTexts>;
  categories: string[];
  tags: string[];
  items: { sku: string; price: number; currency: string; kind: ItemKind; names: Record<string, string> }[];
}

/** What a save writes: every field of the game's metadata, and how its search tokens are made. */
export interface GameMetadataWrite extends GameMetadata {
  /** The search index's tokens per locale. */
  searchTokens: (texts: GameTexts, tagTitles: string[]) => string;
}
