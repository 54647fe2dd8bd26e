/**
 * Roles and what they see (spec 2.6, 2.7, 2.12, 6).
 */
import type { AppContext } from './app-context.ts';

export interface IdentityEducators {
  authenticated?: boolean | null;
  educators?: ReadonlyArray<{ id: string }> | null;
}

/** Spec 6: an educator admin is a user whose educators list contains the page's educator id. */
export function isEducatorAdmin(identity: IdentityEducators | null | undefined, educatorId: string): boolean {
  return !!identity?.authenticated && (identity.educators ?? []).some((educator) => educator.id === educatorId);
}

/** Spec 6: a user with any educators counts as an admin for the dropdown labelling and the post-login redirect. */
export function administersAnyEducator(identity: IdentityEducators | null | undefined): boolean {
  return !!identity?.authenticated && (identity.educators ?? []).length > 0;
}

/** Spec 2.6: the "Contact" button: marketplace only, when can_be_contacted is true. */
export function showContactButton(context: AppContext, educator: { can_be_contacted?: boolean | null }): boolean {
  return context === 'marketplace' && educator.can_be_contacted === true;
}

/** Spec 2.6: the account dropdown sits in the profile header in the minisite only. */
export function showProfileAccountDropdown(context: AppContext): boolean {
  return context === 'minisite';
}

/** Spec 2.12: the save (heart) overlay is not shown in the embed context. */
export function showSaveButton(context: AppContext): boolean {
  return context !== 'embed';
}
