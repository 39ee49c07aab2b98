// First: installs the web-view host's bridge (dev/test) before anything checks for it.
import './app/webview-host-bootstrap';
import { boot } from './app/boot';
import { startRecording } from '@/app/observability';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
void boot(container);
// Session recording and error reporting, once the page has loaded (not on the dev server:
// it has no ingest).
startRecording(import.meta.env.PROD);
