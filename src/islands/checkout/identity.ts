/**
 * The learner's identity as the checkout uses it: the accounts area's nanostore (src/stores/identity.ts) —
 * GET /api/identity with the session cookie, or inside an embed with the bearer token traded for the
 * one-time code a first-party login window posts back (DESIGN 5). Spec 4: "The identity state refreshes
 * if it is not ready".
 */
import { $identity, authHeaders, loadIdentity, type Identity } from '../../stores/identity.ts';
import { listenForEmbedCode, startLogin } from '../../stores/embed-login.ts';

export { $identity, authHeaders, listenForEmbedCode, startLogin };
export type CheckoutIdentity = Identity;

/** Loads the identity again (after a login window closed, or the tab regained focus). */
export function refreshIdentity(): Promise<void> {
  return loadIdentity(true).then(() => undefined);
}
