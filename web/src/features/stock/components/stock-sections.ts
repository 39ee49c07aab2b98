/** The stock page's market sections, one chunk (they share the instrument's query and the CSS). */
export { messagesReady } from '../locales/messages';
export { KeyFigures } from './KeyFigures';
export { StockChart } from './StockChart';
