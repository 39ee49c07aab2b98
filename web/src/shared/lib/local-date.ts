/** A day on the member's own calendar as `YYYY-MM-DD` (not UTC: in Seoul, 08:00 is still yesterday in UTC). */
export function localIsoDate(date: Date = new Date()): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
