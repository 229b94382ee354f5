import { useSyncExternalStore } from 'react';

/**
 * Whether this tab's user must enrol in two-factor sign-in before anything else (an admin requires it and they
 * have not turned it on). Marked by the sign-in answer (`enrolTwoFactor`) and by any API call refused with the
 * code two_factor_enrolment_required (the server's gate, server/auth/enrol-gate.ts: the policy may be turned on
 * while the user is signed in, or the tab opened after sign-in); cleared once they enrol or sign out. The
 * panel then keeps them on Settings (settings/EnrolGate.tsx), which shows only what enrolment needs.
 */
export const ENROL_KEY = 'kadr.enrolTwoFactor';
const CHANGED = 'kadr:enrolment';

export const mustEnrol = () => sessionStorage.getItem(ENROL_KEY) !== null;

/** Marks (or clears) the need to enrol and tells the screens. */
export function setMustEnrol(on: boolean): void {
  if (on === mustEnrol()) return;
  if (on) sessionStorage.setItem(ENROL_KEY, '1');
  else sessionStorage.removeItem(ENROL_KEY);
  window.dispatchEvent(new Event(CHANGED));
}

const subscribe = (onChange: () => void) => {
  window.addEventListener(CHANGED, onChange);
  return () => window.removeEventListener(CHANGED, onChange);
};

/** The need to enrol, re-rendering when it changes. */
export const useMustEnrol = () => useSyncExternalStore(subscribe, mustEnrol);
