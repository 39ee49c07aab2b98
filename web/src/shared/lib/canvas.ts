/**
 * Drawing a share card (a PNG made on a 2D canvas, sent through the bridge's
 * `SHARE_IMAGE`): the canvas set-up, the brand's look, text that fits, the PNG.
 */

/** The font stack of the app (canvas text does not read CSS variables). */
export const CANVAS_FONT = "'Pretendard', 'Apple SD Gothic Neo', 'Noto Sans KR', system-ui, sans-serif";

/** The brand gradient's two ends (deep navy to the primary blue). */
export const BRAND_GRADIENT = ['#0f2a5c', '#1c5fd4'] as const;

/** A canvas and its 2D context. */
export interface Canvas2D {
  canvas: HTMLCanvasElement;
  ctx: CanvasRenderingContext2D;
}

/**
 * A new canvas of `width` × `height` CSS pixels drawn at `scale` device pixels each, with
 * its 2D context, or `null` where the browser cannot draw (no 2D canvas).
 */
export function createCanvas(width: number, height: number, scale = 1, doc: Document = document): Canvas2D | null {
  const canvas = doc.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = height * scale;
  let ctx: CanvasRenderingContext2D | null = null;
  try {
    ctx = canvas.getContext('2d');
  } catch {
    return null;
  }
  if (!ctx) return null;
  if (scale !== 1) ctx.scale(scale, scale);
  return { canvas, ctx };
}

/** Fills `width` × `height` from the top left with the brand gradient (left to right, top to bottom). */
export function fillBrandGradient(ctx: CanvasRenderingContext2D, width: number, height: number): void {
  const gradient = ctx.createLinearGradient(0, 0, width, height);
  gradient.addColorStop(0, BRAND_GRADIENT[0]);
  gradient.addColorStop(1, BRAND_GRADIENT[1]);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
}

/** `text`, shortened with `…` until it fits `max` pixels in the context's current font. */
export function fitText(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (ctx.measureText(text).width <= max) return text;
  const chars = [...text];
  while (chars.length > 1 && ctx.measureText(`${chars.join('')}…`).width > max) chars.pop();
  return `${chars.join('')}…`;
}

/** The drawing as a PNG data URL, or `null` when the browser refuses (a tainted canvas). */
export function canvasToPng(canvas: HTMLCanvasElement): string | null {
  try {
    return canvas.toDataURL('image/png');
  } catch {
    return null;
  }
}
