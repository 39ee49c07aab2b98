/** SHARE_IMAGE outside the app's web view (send.ts loads it on first use, off the first page). */
import type { BridgePayloads } from './actions';

/** Decodes a base64 `data:` URL into a File. */
function dataUrlToFile(dataUrl: string, fileName: string): File {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('not a base64 data URL');
  const binary = atob(match[2]!);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new File([bytes], fileName, { type: match[1] ?? 'application/octet-stream' });
}

/**
 * Web Share API with the image as a file when the browser can share files; otherwise a
 * download of the data URL. A share the user cancels is not retried as a download. Never rejects.
 */
export async function shareImage({ dataUrl, fileName, title, text }: BridgePayloads['SHARE_IMAGE'], win: Window): Promise<void> {
  const nav = win.navigator;
  try {
    const file = dataUrlToFile(dataUrl, fileName);
    if (typeof nav.canShare === 'function' && nav.canShare({ files: [file] })) {
      await nav.share({ files: [file], title, text });
      return;
    }
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
  }
  const link = win.document.createElement('a');
  link.href = dataUrl;
  link.download = fileName;
  link.rel = 'noopener';
  win.document.body.append(link);
  link.click();
  link.remove();
}
