/**
 * The recorder's own chunk, loaded after the first paint (`./index`). The recording
 * client (`highlight.run`, a few hundred KiB) is a further chunk, downloaded only by
 * browsers that are recorded: crawlers and automated browsers never fetch it.
 */
import { bindRecordedSession } from './bind';
import { browserMayRecord, createRecorder, type Recorder } from './recorder';

/** A started recorder, or `undefined` when this browser is not recorded. */
export async function loadRecorder(win: Window = window): Promise<Recorder | undefined> {
  if (!browserMayRecord(win)) return undefined;
  const { H } = await import('highlight.run');
  const recorder = createRecorder({ client: H, win, bindSession: bindRecordedSession });
  recorder.start();
  return recorder;
}
