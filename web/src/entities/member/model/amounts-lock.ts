import { useStoredValue } from '@/shared/hooks/useStoredValue';

/**
 * Whether the member hides every amount (`MOAT_META_PORTFOLIO_LOCK`): the portfolio and
 * dividend screens then show `•••••` and only percentages, for screenshots and
 * over-the-shoulder privacy. Followed live.
 */
export function useAmountsLocked(): [boolean, (locked: boolean) => void] {
  const [locked = false, setLocked] = useStoredValue('MOAT_META_PORTFOLIO_LOCK');
  return [locked, setLocked];
}
