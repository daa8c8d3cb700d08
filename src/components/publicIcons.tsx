// The inline icons the public screens draw (no icon font: a few paths each) and the frame all
// icons share. The signed-in screens import every icon from ./icons, which adds theirs: a module
// that several chunks load carries every icon any of them uses, and /login's budget has no room
// for the signed-in ones (npm run size).
import type { ReactNode, SVGProps } from 'react';

const base = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

type IconProps = SVGProps<SVGSVGElement>;

/** An outline icon; `size` is its default width and height. */
export const icon = (paths: ReactNode, size = 20) =>
  function Icon(props: IconProps) {
    return (
      <svg {...base} width={size} height={size} {...props}>
        {paths}
      </svg>
    );
  };

export const EyeIcon = /*#__PURE__*/ icon(
  <>
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
    <circle cx="12" cy="12" r="3" />
  </>,
  18,
);
export const EyeOffIcon = /*#__PURE__*/ icon(
  <>
    <path d="M10.6 5.1A10 10 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-2.6 3.5M6.6 6.6C3.7 8.4 2 12 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M3 3l18 18" />
  </>,
  18,
);
export const ShieldIcon = /*#__PURE__*/ icon(
  <>
    <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6l-8-3Z" />
    <path d="m8.5 12 2.5 2.5 4.5-4.5" />
  </>,
  18,
);
export const ChevronIcon = /*#__PURE__*/ icon(<path d="m6 9 6 6 6-6" />, 14);
export const GlobeIcon = /*#__PURE__*/ icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
  </>,
  18,
);
export const CheckIcon = /*#__PURE__*/ icon(<path d="m5 12.5 4.5 4.5L19 7.5" />, 16);
export const BoltIcon = /*#__PURE__*/ icon(<path d="M13 2 4 14h7l-1 8 9-12h-7l1-8Z" />, 18);
export const UsersIcon = /*#__PURE__*/ icon(
  <>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14.5a6.5 6.5 0 0 1 3.5 5.5" />
  </>,
  18,
);
export const ArrowLeftIcon = /*#__PURE__*/ icon(<path d="M19 12H5M11 6l-6 6 6 6" />, 16);
/** The padlock mark of the favicon, as the product logo. */
export const BrandMark = ({ size = 32 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <rect width="32" height="32" rx="8" fill="#f0b90b" />
    <path d="M10.5 14v-3a5.5 5.5 0 0 1 11 0v3" stroke="#0d1b3e" strokeWidth="2.5" fill="none" />
    <rect x="8" y="14" width="16" height="12" rx="2.5" fill="#0d1b3e" />
    <circle cx="16" cy="19.5" r="1.9" fill="#f0b90b" />
  </svg>
);
