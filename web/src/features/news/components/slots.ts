/** What news puts on other screens (one chunk): home's top stories and a stock's news. */
export { HomeNews } from './HomeNews';
export { StockNews } from './StockNews';
export { messagesReady } from '../locales/messages';
