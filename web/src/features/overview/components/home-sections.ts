/** The overview's home sections, one chunk (they share the overview query and its CSS). */
export { messagesReady } from '../locales/messages';
export { IndicesSection } from './IndicesSection';
export { MoversSection } from './MoversSection';
