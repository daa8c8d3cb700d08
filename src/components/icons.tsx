// The inline icons of the signed-in screens, with the public ones (./publicIcons) re-exported:
// import every icon from here, except on the public screens.
import { icon } from './publicIcons';

export {
  BrandMark,
  CheckIcon,
  ChevronIcon,
  EyeIcon,
  EyeOffIcon,
  GlobeIcon,
  ShieldIcon,
} from './publicIcons';

export const MenuIcon = /*#__PURE__*/ icon(<path d="M4 6h16M4 12h16M4 18h16" />);
export const BellIcon = /*#__PURE__*/ icon(
  <>
    <path d="M6 10a6 6 0 0 1 12 0c0 5 2 6.5 2 6.5H4S6 15 6 10Z" />
    <path d="M10 20a2.2 2.2 0 0 0 4 0" />
  </>,
);
export const HomeIcon = /*#__PURE__*/ icon(
  <>
    <path d="m3 11 9-7 9 7" />
    <path d="M5 10v10h5v-6h4v6h5V10" />
  </>,
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
export const ChatIcon = /*#__PURE__*/ icon(<path d="M5 5h14v10H9l-4 4V5Z" />);
export const SendIcon = /*#__PURE__*/ icon(<path d="M4 12 20 4l-6 16-2.5-6.5L4 12Z" />);
