/**
 * The portfolio summary card shared as an image (canvas → PNG): name, total value,
 * today's change, return and the largest holdings with their weights. With the lock on
 * (`MOAT_META_PORTFOLIO_LOCK`) every amount is drawn as `•••••`; percentages stay.
 *
 * Drawn with `shared/lib/canvas` (the canvas set-up, the brand band, text that fits). The
 * text is prepared first ({@link shareCardModel}) so what the card says is decided in one
 * place.
 */
import { formatAmount, formatDate, formatPercent, formatRate, MASKED_AMOUNT } from '@/shared/i18n/format';
import { CANVAS_FONT as FONT, canvasToPng, createCanvas, fillBrandGradient, fitText as fit } from '@/shared/lib/canvas';
import type { Locale } from '@/shared/lib/storage';
import { toBig } from '@/shared/lib/money';
import { direction, type Direction } from '@/entities/instrument/model/format';
import { instrumentLabel } from '@/entities/instrument/model/ids';
import type { PortfolioT } from '../locales/messages';
import type { Valuation } from '../api/valuation';
import { localIsoDate } from '@/shared/lib/local-date';

/** How many holdings the card lists. */
export const SHARE_TOP_HOLDINGS = 5;

/** Everything the card writes, already formatted (and masked). */
export interface ShareCardModel {
  brand: string;
  title: string;
  totalLabel: string;
  total: string;
  todayLabel: string;
  dayChange: string;
  dayChangePercent: string;
  dayDirection: Direction;
  returnLabel: string;
  returnPercent: string;
  returnDirection: Direction;
  holdingsTitle: string;
  holdings: { name: string; weight: string; /** 0–1, for the bar. */ share: number }[];
  emptyHoldings: string;
  footer: string;
}

export interface ShareCardInput {
  name: string;
  valuation: Valuation;
  locked: boolean;
  locale: Locale;
  t: PortfolioT;
}

export function shareCardModel({ name, valuation, locked, locale, t }: ShareCardInput): ShareCardModel {
  const { totals } = valuation;
  const amount = (value: string, signed = false) => (locked ? MASKED_AMOUNT : formatAmount(value, totals.currency, locale, signed));
  const top = [...valuation.holdings]
    .sort((a, b) => toBig(b.weight_percent).cmp(toBig(a.weight_percent)))
    .slice(0, SHARE_TOP_HOLDINGS);
  return {
    brand: 'Moat',
    title: name,
    totalLabel: t('figures.totalValue'),
    total: amount(totals.total_value),
    todayLabel: t('figures.todayChange'),
    dayChange: amount(totals.day_change, true),
    dayChangePercent: formatPercent(totals.day_change_percent, locale),
    dayDirection: direction(totals.day_change_percent),
    returnLabel: t('figures.return'),
    returnPercent: formatPercent(totals.return_percent, locale),
    returnDirection: direction(totals.return_percent),
    holdingsTitle: t('share.topHoldings'),
    holdings: top.map((h) => {
      const w = toBig(h.weight_percent);
      const share = Number(w.lt(0) ? 0 : w.gt(100) ? 1 : w.div(100).toFixed(4));
      return { name: instrumentLabel(h, h.instrument, locale), weight: formatRate(h.weight_percent, locale, 1), share };
    }),
    emptyHoldings: t('share.noHoldings'),
    footer: valuation.as_of ? t('share.asOf', { time: formatDate(valuation.as_of, locale, { dateStyle: 'medium', timeStyle: 'short' }) }) : '',
  };
}

/** Rise and fall colours as the page shows them (they follow the language), with defaults. */
export interface ShareColors {
  up: string;
  down: string;
}

export function shareColors(doc: Document = document): ShareColors {
  const style = doc.defaultView?.getComputedStyle(doc.documentElement);
  const read = (name: string, fallback: string) => style?.getPropertyValue(name).trim() || fallback;
  return { up: read('--color-up', '#e0323b'), down: read('--color-down', '#1f6fe5') };
}

/** Layout width in CSS pixels; drawn at twice that for sharp text on phones. */
const WIDTH = 600;
const SCALE = 2;
const PAD = 32;
const ROW = 46;

/** The card's height for `rows` holdings rows (at least one line, the "no holdings" one). */
export function shareCardHeight(rows: number): number {
  return 332 + Math.max(rows, 1) * ROW + 48;
}

/**
 * Draws the card and returns it as a PNG data URL, or `null` where the browser cannot
 * draw (no 2D canvas).
 */
export function drawShareCard(model: ShareCardModel, colors: ShareColors, doc: Document = document): string | null {
  const height = shareCardHeight(model.holdings.length);
  const drawing = createCanvas(WIDTH, height, SCALE, doc);
  if (!drawing) return null;
  const { canvas, ctx } = drawing;
  const colour = (d: Direction) => (d === 'up' ? colors.up : d === 'down' ? colors.down : '#5b6577');
  const inner = WIDTH - PAD * 2;

  // Background and the brand band.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, height);
  fillBrandGradient(ctx, WIDTH, 72);
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 26px ${FONT}`;
  ctx.fillText(model.brand, PAD, 46);

  // Name.
  ctx.fillStyle = '#101828';
  ctx.font = `800 28px ${FONT}`;
  ctx.fillText(fit(ctx, model.title, inner), PAD, 120);

  // Total value.
  ctx.fillStyle = '#5b6577';
  ctx.font = `600 15px ${FONT}`;
  ctx.fillText(model.totalLabel, PAD, 158);
  ctx.fillStyle = '#101828';
  ctx.font = `800 38px ${FONT}`;
  ctx.fillText(fit(ctx, model.total, inner), PAD, 202);

  // Today's change and the return, side by side.
  const y = 246;
  ctx.font = `600 15px ${FONT}`;
  ctx.fillStyle = '#5b6577';
  ctx.fillText(model.todayLabel, PAD, y);
  let x = PAD + ctx.measureText(model.todayLabel).width + 8;
  ctx.font = `700 17px ${FONT}`;
  ctx.fillStyle = colour(model.dayDirection);
  const change = `${model.dayChange} (${model.dayChangePercent})`;
  ctx.fillText(fit(ctx, change, WIDTH / 2 + 40 - x), x, y);
  x = WIDTH / 2 + 56;
  ctx.font = `600 15px ${FONT}`;
  ctx.fillStyle = '#5b6577';
  ctx.fillText(model.returnLabel, x, y);
  x += ctx.measureText(model.returnLabel).width + 8;
  ctx.font = `700 17px ${FONT}`;
  ctx.fillStyle = colour(model.returnDirection);
  ctx.fillText(model.returnPercent, x, y);

  ctx.fillStyle = '#e4e7ec';
  ctx.fillRect(PAD, 270, inner, 1);

  // The largest holdings, each with its weight and a bar.
  ctx.fillStyle = '#101828';
  ctx.font = `800 17px ${FONT}`;
  ctx.fillText(model.holdingsTitle, PAD, 306);
  let row = 306 + 38;
  if (model.holdings.length === 0) {
    ctx.fillStyle = '#5b6577';
    ctx.font = `500 15px ${FONT}`;
    ctx.fillText(model.emptyHoldings, PAD, row);
  }
  for (const h of model.holdings) {
    ctx.font = `700 16px ${FONT}`;
    ctx.textAlign = 'right';
    ctx.fillStyle = '#101828';
    ctx.fillText(h.weight, WIDTH - PAD, row);
    const weightWidth = ctx.measureText(h.weight).width;
    ctx.textAlign = 'left';
    ctx.font = `600 16px ${FONT}`;
    ctx.fillText(fit(ctx, h.name, inner - weightWidth - 16), PAD, row);
    ctx.fillStyle = '#eef1f5';
    ctx.fillRect(PAD, row + 10, inner, 6);
    ctx.fillStyle = '#1c5fd4';
    ctx.fillRect(PAD, row + 10, Math.max(2, inner * h.share), 6);
    row += ROW;
  }

  // As of.
  if (model.footer) {
    ctx.textAlign = 'left';
    ctx.fillStyle = '#8a94a6';
    ctx.font = `500 13px ${FONT}`;
    ctx.fillText(fit(ctx, model.footer, inner), PAD, height - 24);
  }
  return canvasToPng(canvas);
}

/** `moat-키움-메인-2026-11-23.png`, dated on the member's own calendar → a name safe for every file system. */
export function shareFileName(name: string, date = new Date()): string {
  const slug = name.replace(/[\\/:*?"<>|\s]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'portfolio';
  return `moat-${slug}-${localIsoDate(date)}.png`;
}
