// The inline icons of every screen: no icon font, a few paths each. Each is marked pure, so a
// chunk carries only the icons it uses and /login keeps to its budget (npm run size).
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
const icon = (paths: ReactNode, size = 20) =>
  function Icon(props: IconProps) {
    return (
      <svg {...base} width={size} height={size} {...props}>
        {paths}
      </svg>
    );
  };

export const MenuIcon = /*#__PURE__*/ icon(<path d="M4 6h16M4 12h16M4 18h16" />);
export const BellIcon = /*#__PURE__*/ icon(
  <>
    <path d="M6 10a6 6 0 0 1 12 0c0 5 2 6.5 2 6.5H4S6 15 6 10Z" />
    <path d="M10 20a2.2 2.2 0 0 0 4 0" />
  </>,
);
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
export const HomeIcon = /*#__PURE__*/ icon(
  <>
    <path d="m3 11 9-7 9 7" />
    <path d="M5 10v10h5v-6h4v6h5V10" />
  </>,
);
export const ShieldIcon = /*#__PURE__*/ icon(
  <>
    <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6l-8-3Z" />
    <path d="m8.5 12 2.5 2.5 4.5-4.5" />
  </>,
  18,
);
export const UserIcon = /*#__PURE__*/ icon(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </>,
);
export const KeyIcon = /*#__PURE__*/ icon(
  <>
    <circle cx="8" cy="15" r="4" />
    <path d="m11 12 9-9M16 7l3 3M14 9l2 2" />
  </>,
);
export const LockIcon = /*#__PURE__*/ icon(
  <>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </>,
);
export const LayersIcon = /*#__PURE__*/ icon(
  <>
    <path d="m12 3 9 5-9 5-9-5 9-5Z" />
    <path d="m3 13 9 5 9-5" />
  </>,
);
export const GridIcon = /*#__PURE__*/ icon(
  <>
    <rect x="4" y="4" width="7" height="7" rx="1.5" />
    <rect x="13" y="4" width="7" height="7" rx="1.5" />
    <rect x="4" y="13" width="7" height="7" rx="1.5" />
    <rect x="13" y="13" width="7" height="7" rx="1.5" />
  </>,
);
export const ChevronIcon = /*#__PURE__*/ icon(<path d="m6 9 6 6 6-6" />, 14);
export const PlusIcon = /*#__PURE__*/ icon(<path d="M12 5v14M5 12h14" />);
export const PencilIcon = /*#__PURE__*/ icon(
  <>
    <path d="M4 20h4L19 9l-4-4L4 16v4Z" />
    <path d="m13.5 6.5 4 4" />
  </>,
);
export const CopyIcon = /*#__PURE__*/ icon(
  <>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V6a2 2 0 0 1 2-2h8" />
  </>,
);
export const DownloadIcon = /*#__PURE__*/ icon(<path d="M12 4v11m0 0-4-4m4 4 4-4M5 20h14" />);
export const GlobeIcon = /*#__PURE__*/ icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
  </>,
  18,
);
export const DollarIcon = /*#__PURE__*/ icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M15 9.5c-.5-1-1.6-1.5-3-1.5-1.7 0-3 .8-3 2s1.3 1.8 3 2 3 .8 3 2-1.3 2-3 2c-1.4 0-2.5-.5-3-1.5M12 6.5v11" />
  </>,
);
export const WalletIcon = /*#__PURE__*/ icon(
  <>
    <path d="M4 7h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V7Z" />
    <path d="M4 7V6a2 2 0 0 1 2-2h10M16 13.5h1" />
  </>,
);
export const UploadIcon = /*#__PURE__*/ icon(
  <path d="M12 16V5m0 0-4 4m4-4 4 4M5 15v3a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-3" />,
);
export const CloseIcon = /*#__PURE__*/ icon(<path d="M6 6l12 12M18 6 6 18" />);
export const CheckIcon = /*#__PURE__*/ icon(<path d="m5 12.5 4.5 4.5L19 7.5" />, 16);
export const ChatIcon = /*#__PURE__*/ icon(<path d="M5 5h14v10H9l-4 4V5Z" />);
export const SendIcon = /*#__PURE__*/ icon(<path d="M4 12 20 4l-6 16-2.5-6.5L4 12Z" />);
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
