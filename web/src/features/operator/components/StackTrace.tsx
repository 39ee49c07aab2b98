/** A stack trace as the recorder sends it: frames of `functionName`, `fileName`, `lineNumber`, `columnNumber`. */
import { useObserveT } from '../locales/observe/messages';

interface Frame {
  functionName?: unknown;
  fileName?: unknown;
  lineNumber?: unknown;
  columnNumber?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** `file:line:column` of a frame (as far as known). */
export function frameLocation(frame: Frame): string | undefined {
  const file = text(frame.fileName);
  if (!file) return undefined;
  const line = num(frame.lineNumber);
  const column = num(frame.columnNumber);
  return [file, line, line !== undefined ? column : undefined].filter((p) => p !== undefined).join(':');
}

export function StackTrace({ frames, testId }: { frames: unknown; testId?: string }) {
  const t = useObserveT();
  const list = Array.isArray(frames) ? (frames.filter((f) => typeof f === 'object' && f !== null) as Frame[]) : [];
  if (list.length === 0) return <p className="observe__muted">{t('error.noStack')}</p>;
  return (
    <ol className="observe-stack" data-testid={testId}>
      {list.map((frame, i) => (
        <li key={i} className="observe-stack__frame">
          <code className="observe-stack__fn">{text(frame.functionName) ?? t('error.anonymous')}</code>
          {frameLocation(frame) && <code className="observe-stack__at">{frameLocation(frame)}</code>}
        </li>
      ))}
    </ol>
  );
}
