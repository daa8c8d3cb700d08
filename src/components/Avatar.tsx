import { useState } from 'react';
import { publicImageUrl } from '../api/profile';

/**
 * Two upper-case letters for an account without a picture: the initials of the first two words
 * of the name, or the first two letters of a one-word name.
 */
export function avatarInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    words.length >= 2
      ? `${words[0]?.[0] ?? ''}${words[1]?.[0] ?? ''}`
      : (words[0] ?? '').slice(0, 2);
  return letters.toUpperCase();
}

interface Props {
  name: string;
  /** The avatar's stored file name; empty or null shows the initials. */
  file?: string | null;
  size?: number;
  className?: string;
  /** Inside a control already named (the settings button): initials hidden from assistive technology. */
  decorative?: boolean;
}

/** The account's picture, or its initials when there is none or it fails to load. */
export function Avatar({ name, file, size = 40, className = '', decorative = false }: Props) {
  const [broken, setBroken] = useState<string | null>(null);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  if (file && broken !== file) {
    return (
      <img
        className={`avatar ${className}`}
        style={style}
        src={publicImageUrl(file)}
        alt={decorative ? '' : `${name}'s profile picture`}
        onError={() => setBroken(file)}
      />
    );
  }
  return (
    <span
      className={`avatar avatar--initials ${className}`}
      style={style}
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name })}
    >
      {avatarInitials(name)}
    </span>
  );
}
