/** The AI service's settings live with the rest of the configuration (server/config.ts reads them). */
export type { AiConfig, AiDriverKind, AiProviderConfig, VideoDialect } from '../config';
