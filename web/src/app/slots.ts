import type { Area, AreaSlots } from '@/shared/area/types';

type SlotsOf<K extends keyof AreaSlots> = NonNullable<AreaSlots[K]>;

/** Every area's slots of one screen, in their `order`. */
export function slotsOf<K extends keyof AreaSlots>(areas: readonly Area[], key: K): SlotsOf<K> {
  const all = areas.flatMap((area) => (area.slots?.[key] ?? []) as SlotsOf<K>[number][]);
  return [...all].sort((a, b) => a.order - b.order) as unknown as SlotsOf<K>;
}
