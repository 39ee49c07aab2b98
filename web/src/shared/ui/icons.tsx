/** Line icons (24 × 24, `currentColor`): the navigation's and the header's. */
export interface IconProps {
  size?: number;
}

const common = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export function HomeIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <path d="M3.5 10.5 12 3.8l8.5 6.7V19a1.5 1.5 0 0 1-1.5 1.5h-4v-6h-6v6H5A1.5 1.5 0 0 1 3.5 19z" />
    </svg>
  );
}

export function PieIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <path d="M12 3.5a8.5 8.5 0 1 0 8.5 8.5H12z" />
      <path d="M15 3.9A8.5 8.5 0 0 1 20.1 9H15z" />
    </svg>
  );
}

export function CalendarIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <rect x="3.5" y="5" width="17" height="15.5" rx="2" />
      <path d="M3.5 9.5h17M8 3v4M16 3v4" />
    </svg>
  );
}

export function StarIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <path d="m12 3.6 2.6 5.3 5.8.8-4.2 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.2-4.1 5.8-.8z" />
    </svg>
  );
}

export function SettingsIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <path d="M4 7h9M17 7h3M4 17h3M11 17h9" />
      <circle cx="15" cy="7" r="2.2" />
      <circle cx="9" cy="17" r="2.2" />
    </svg>
  );
}

export function GlobeIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3a13.5 13.5 0 0 1 0 18M12 3a13.5 13.5 0 0 0 0 18" />
    </svg>
  );
}

export function SearchIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <circle cx="11" cy="11" r="6.5" />
      <path d="m16 16 4.5 4.5" />
    </svg>
  );
}

export function GridIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <rect x="4" y="4" width="6.5" height="6.5" rx="1.5" />
      <rect x="13.5" y="4" width="6.5" height="6.5" rx="1.5" />
      <rect x="4" y="13.5" width="6.5" height="6.5" rx="1.5" />
      <rect x="13.5" y="13.5" width="6.5" height="6.5" rx="1.5" />
    </svg>
  );
}

export function NewsIcon({ size = 24 }: IconProps) {
  return (
    <svg {...common} width={size} height={size}>
      <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
      <path d="M7 9h10M7 12.5h10M7 16h6" />
    </svg>
  );
}
