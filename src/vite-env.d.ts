/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The AI service's base URL (src/providers/aiClient.ts); unset: the panel's own origin. */
  readonly VITE_AI_BASE_URL?: string;
}

/** The sign-in page's messages in one language (scripts/vite/signInMessages.ts). */
declare module 'virtual:sign-in-messages/*' {
  const messages: Record<string, unknown>;
  export default messages;
}
