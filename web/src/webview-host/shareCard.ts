import { CANVAS_FONT as FONT, canvasToPng, createCanvas, fillBrandGradient } from '@/shared/lib/canvas';

/** Size of the shared card image (the Open Graph ratio, at half resolution). */
export const SHARE_CARD_SIZE = { width: 600, height: 315 } as const;

export interface ShareCardText {
  title: string;
  text: string;
}

/**
 * Draws a small Moat card on a canvas and returns it as a PNG data URL, or `null` where
 * the browser cannot draw (no 2D canvas).
 */
export function renderShareCard({ title, text }: ShareCardText, doc: Document = document): string | null {
  const { width, height } = SHARE_CARD_SIZE;
  const drawing = createCanvas(width, height, 1, doc);
  if (!drawing) return null;
  const { canvas, ctx } = drawing;
  fillBrandGradient(ctx, width, height);

  // The mark: a keep with battlements over a wave.
  ctx.save();
  ctx.translate(48, 48);
  ctx.scale(2, 2);
  ctx.fillStyle = '#ffffff';
  ctx.fill(new Path2D('M9 21.5V10h3v2.6h2.5V10h3v2.6H20V10h3v11.5z'));
  ctx.strokeStyle = '#7fe3d6';
  ctx.lineWidth = 1.8;
  ctx.lineCap = 'round';
  ctx.stroke(new Path2D('M6 25.6c1.7 0 1.7-1.3 3.4-1.3s1.7 1.3 3.4 1.3 1.7-1.3 3.4-1.3 1.7 1.3 3.4 1.3 1.7-1.3 3.4-1.3'));
  ctx.restore();

  ctx.fillStyle = '#ffffff';
  ctx.font = `800 44px ${FONT}`;
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(title, 48, 190);
  ctx.fillStyle = 'rgba(255, 255, 255, 0.82)';
  ctx.font = `500 24px ${FONT}`;
  ctx.fillText(text, 48, 232, width - 96);
  return canvasToPng(canvas);
}
