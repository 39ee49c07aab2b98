export interface LogoMarkProps {
  size?: number;
}

/** The Moat mark: a keep with its battlements, and the moat's water below. */
export function LogoMark({ size = 28 }: LogoMarkProps) {
  return (
    <svg className="logo-mark" viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="9" fill="#1c5fd4" />
      <path d="M9 21.5V10h3v2.6h2.5V10h3v2.6H20V10h3v11.5z" fill="#fff" />
      <path d="M14.2 21.5v-3.2a1.8 1.8 0 0 1 3.6 0v3.2z" fill="#1c5fd4" />
      <path
        d="M6 25.6c1.7 0 1.7-1.3 3.4-1.3s1.7 1.3 3.4 1.3 1.7-1.3 3.4-1.3 1.7 1.3 3.4 1.3 1.7-1.3 3.4-1.3 1.7 1.3 3.4 1.3"
        fill="none"
        stroke="#7fe3d6"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}

export interface HouseLogoProps {
  /** The operator's uploaded logo (`/media/…`); without one, the Moat mark. */
  src?: string | null | undefined;
  size?: number;
}

/** The house logo: the operator's image when one is uploaded, else the Moat mark. */
export function HouseLogo({ src, size = 28 }: HouseLogoProps) {
  if (!src) return <LogoMark size={size} />;
  return <img className="logo-mark logo-mark--house" src={src} width={size} height={size} alt="" decoding="async" />;
}
