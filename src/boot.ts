import { readAuth } from './providers/authStore';
import { coreOnlyPage, startFirstData } from './providers/firstData';
import { currentLocale } from './providers/locale';
import { panelCoreOf, panelMessagesOf, signInMessagesOf } from './providers/messageChunks';

/**
 * main.tsx's first import, a few KB with no React: its code runs before the modules bundled with main.tsx (React
 * DOM, the toaster, the loading screen), and starts what the first screen waits for. Before, these started from
 * main.tsx's body, once those had run. (The shared chunks main.tsx's chunk imports, MUI's styles, still run first:
 * a chunk of its own for this module won nothing, docs/benchmarks-cold-pages.md.)
 * Signed in: the page's first request (src/providers/firstData.ts), the panel's code, the code of the screen at
 * this path and the messages; signed out: the sign-in form's messages (the form comes with main.tsx). main.tsx
 * asks for the same modules; a module is loaded once, so it takes these.
 */
const signedIn = readAuth().isAuthenticated && !!readAuth().refreshToken;
if (signedIn) startFirstData(location);
const locale = currentLocale();
const quiet = (p: Promise<unknown>) => void p.catch(() => {}); // main.tsx asks again and handles a failure
if (signedIn) {
  quiet(import('./App'));
  quiet(import('./firstScreen').then((m) => m.preloadScreen(location.pathname)));
  quiet(coreOnlyPage(location.pathname) ? panelCoreOf(locale) : panelMessagesOf(locale));
  // A list's numbers (react-admin's NumberField: toLocaleString) are the page's first use of Intl, and the first
  // number formatter loads ICU's data: 15–100 ms of the render that shows the rows, on this machine. Done now, while
  // the main thread waits for the panel's chunks. (The result is the same: the browser's default format.)
  setTimeout(() => void (0).toLocaleString(), 0);
} else {
  quiet(signInMessagesOf(locale));
}
