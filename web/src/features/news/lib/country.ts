/** The country the news screens show (`MOAT_NEWS_COUNTRY`), Korea until the member picks. */
import { useStoredValue } from '@/shared/hooks/useStoredValue';
import type { NewsCountry } from '../api/types';

/** Shown until the member picks (the key also allows `ALL`, which these screens read as Korea). */
export const DEFAULT_NEWS_COUNTRY: NewsCountry = 'KR';

/** The chosen country and its setter, followed live (other tabs, the app). */
export function useNewsCountry(): [NewsCountry, (country: NewsCountry) => void] {
  const [stored, setStored] = useStoredValue('MOAT_NEWS_COUNTRY');
  return [stored === 'KR' || stored === 'US' ? stored : DEFAULT_NEWS_COUNTRY, setStored];
}
