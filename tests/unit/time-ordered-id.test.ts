/**
 * Ids that sort by when they were made (api/shared/ids.ts timeOrderedId: audit entries, outbox e-mails): within one
 * millisecond they still sort in the order they were made, so the outbox sends a waitlist's e-mails oldest learner
 * first and the audit log pages without skipping.
 */
import { expect, it } from 'vitest';
import { timeOrderedId } from '../../api/shared/ids.ts';

it('sorts ids of the same millisecond, and of a clock that stepped back, in the order they were made', () => {
  const ms = 1_800_000_000_000;
  const ids = [timeOrderedId('msg', ms), timeOrderedId('msg', ms), timeOrderedId('msg', ms - 5), timeOrderedId('msg', ms + 1), timeOrderedId('msg', ms + 1)];
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.every((id) => /^msg_[0-9a-z]{14}[0-9a-f]{8}$/.test(id))).toBe(true);
});
