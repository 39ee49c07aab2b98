/** The shared look of the header's items (`header-icon-button`, `header-link`). */
import './header-items.css';
