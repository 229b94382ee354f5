/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The AI service's base URL (src/providers/aiClient.ts); unset: the panel's own origin. */
  readonly VITE_AI_BASE_URL?: string;
}

/**
 * The sign-in page's messages in one language (scripts/vite/signInMessages.ts): react-admin's message type, since
 * that page's translator is polyglot's (src/providers/i18nProvider.ts). The page renders none of react-admin's own
 * `ra.*` texts, so the keys the set leaves out are never asked for.
 */
declare module 'virtual:sign-in-messages/*' {
  const messages: import('ra-core').TranslationMessages;
  export default messages;
}

/** MUI's own Tooltip (scripts/vite/lazyTooltip.ts), which src/common/LazyTooltip.tsx loads on first use. */
declare module 'virtual:mui-tooltip' {
  export { default } from '@mui/material/Tooltip';
}

/** The CSV library react-admin's default exporter uses, loaded on the first export (src/shims/jsonexport.ts). */
declare module 'jsonexport/dist' {
  const jsonExport: (...args: unknown[]) => void;
  export default jsonExport;
}

/** One part of the panel's messages in one language (scripts/vite/panelMessages.ts, i18n/panelParts.ts). */
declare module 'virtual:panel-messages/*' {
  const messages: import('ra-core').TranslationMessages;
  export default messages;
}
