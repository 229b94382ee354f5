import { makeHttpClient } from './httpClient';

/**
 * The AI service's base URL (SPEC §7 "two clients"): `VITE_AI_BASE_URL` at build time, else the panel's own
 * origin (the AI routes are mounted on the API by default). No trailing slash.
 */
export const AI_BASE_URL = (import.meta.env?.VITE_AI_BASE_URL ?? '').replace(/\/+$/, '');

/** The panel's second client: the same bearer token, single-flight refresh and retry once on 401 as httpClient. */
export const aiClient = makeHttpClient(AI_BASE_URL);
