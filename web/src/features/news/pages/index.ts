/** The news pages visitors open (one chunk: moving between the list, a search and an article loads nothing more). */
export { NewsPage } from './NewsPage';
export { SearchPage } from './SearchPage';
export { ArticlePage } from './ArticlePage';
export { messagesReady } from '../locales/messages';
