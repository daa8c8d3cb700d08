import { ABILITY_TITLES, type AbilityId } from '../../shared/apps';
import type { Translate } from '../../i18n/i18n';

// The permissions' titles are a fixed set: the server answers them in English, the client shows
// them in the language in use, by the ability's id (docs/decisions.md, Languages).

const isAbility = (value: string): value is AbilityId => Object.hasOwn(ABILITY_TITLES, value);

/**
 * An ability's title in the language in use; for an id this client does not know (a newer
 * server's), the server's words as sent, else the id.
 */
export function abilityTitle(t: Translate, value: string, serverTitle?: string): string {
  if (isAbility(value)) return t(`keys.ability.${value}`);
  return serverTitle ?? value;
}
