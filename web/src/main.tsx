// First: installs the web-view host's bridge (dev/test) before anything checks for it.
import './app/webview-host-bootstrap';
import { boot } from './app/boot';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
void boot(container);
