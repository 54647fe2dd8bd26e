/**
 * What a member with credits left is offered on a course (the booking aside, the Spaces step). A module of its own,
 * with no imports: the course page's booking aside ships it to every visitor (the rest of the membership rules,
 * src/domain/memberships.ts, bring zod with them).
 */

export const USE_CREDIT_TEXT = 'Use 1 credit';

/** The booking aside's line for a member with credits left: what they can do, and how many they have. */
export function memberCreditText(member: { planName: string; creditsLeft: number }): string {
  return `${USE_CREDIT_TEXT} (${member.planName}: ${member.creditsLeft} left)`;
}
