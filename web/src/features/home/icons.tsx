/** Feature icons of the home page (32 × 32 line drawings, `currentColor`). */
const common = {
  viewBox: '0 0 32 32',
  width: 28,
  height: 28,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

/** A pie chart: holdings and allocation. */
export function PortfolioIcon() {
  return (
    <svg {...common}>
      <path d="M16 4a12 12 0 1 0 12 12H16z" />
      <path d="M20 3.7A12 12 0 0 1 28.3 12H20z" />
    </svg>
  );
}

/** A calendar with a coin: dividends to come. */
export function DividendIcon() {
  return (
    <svg {...common}>
      <path d="M17 24H7a3 3 0 0 1-3-3V9a3 3 0 0 1 3-3h14a3 3 0 0 1 3 3v7" />
      <path d="M4 12h20M10 3v5M18 3v5" />
      <circle cx="24" cy="24" r="5.5" />
      <path d="M24 21.5v5" strokeWidth="1.6" />
    </svg>
  );
}

/** A folded newspaper: market news. */
export function NewsIcon() {
  return (
    <svg {...common}>
      <path d="M6 6h16v19a2 2 0 0 0 2 2H8a2 2 0 0 1-2-2z" />
      <path d="M22 11h4v14a2 2 0 0 1-4 0" />
      <path d="M10 11h8M10 15h8M10 19h5" />
    </svg>
  );
}

/** Two speech bubbles: community and per-stock chat. */
export function ChatIcon() {
  return (
    <svg {...common}>
      <path d="M4 8a3 3 0 0 1 3-3h11a3 3 0 0 1 3 3v6a3 3 0 0 1-3 3h-6l-5 4v-4H7a3 3 0 0 1-3-3z" />
      <path d="M24 11h1a3 3 0 0 1 3 3v6a3 3 0 0 1-3 3h-1v4l-5-4h-4" />
    </svg>
  );
}

/** A server with a check: self-hosting. */
export function ServerIcon() {
  return (
    <svg {...common}>
      <rect x="5" y="5" width="22" height="9" rx="2.5" />
      <rect x="5" y="18" width="22" height="9" rx="2.5" />
      <path d="M10 9.5h.01M10 22.5h.01M15 9.5h7M15 22.5h7" />
    </svg>
  );
}

/** A check mark. */
export function CheckIcon() {
  return (
    <svg {...common} width={18} height={18} strokeWidth={2.6}>
      <path d="M7 16.5l6 6L25 10" />
    </svg>
  );
}
