import { z } from 'zod';
import { PLATFORMS, type PlatformKey } from './platforms';

/*
 * The API's schemas of a platform id, apart from the list (./platforms.ts): the list is in the panel's shell,
 * which carries no full zod (see docs/benchmarks-cold-pages.md); these only where the contract's schemas are.
 */

/**
 * A platform id the API takes: one of `known`. The panel checks against the panel list; the server against its
 * registry's ids (the list's, plus any platform a test's registry adds), so an unknown one is a 400 naming its
 * field, and the API docs list the ids it takes.
 */
export const platformIn = (known: readonly PlatformKey[] = PLATFORMS) => z.enum(known);

/**
 * A platform id in an answer: one of the panel list, or another platform of the server's registry (a test's). The
 * docs list its ids; typed as the list, which the registry equals outside tests.
 */
export const platformOut = z.string().meta({ enum: [...PLATFORMS] }) as unknown as z.ZodType<PlatformKey>;
