let onLoggedOut: () => void = () => {};

/** Called when the session ends (a refresh refused with 401): the app shows the sign-in form at once. */
export const setLoggedOutHandler = (fn: () => void) => {
  onLoggedOut = fn;
};

/** Tells the app the session has ended. */
export const loggedOut = () => onLoggedOut();
