/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The AI service's base URL (src/providers/aiClient.ts); unset: the panel's own origin. */
  readonly VITE_AI_BASE_URL?: string;
}
