import { type ClassValue, clsx } from 'clsx';

/**
 * Joins class names. Conflicting utilities are not resolved here (tailwind-merge cost a phone about
 * 100 ms at start-up, decision 078): a component offers variants or props instead of overrides,
 * and the accessibility walk fails on any element whose utilities contradict each other.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
