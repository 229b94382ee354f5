import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { SelectOption } from '../contract/groups';

/** The shared fields each video starts from (SPEC §2: the shared title, description, tags and date). */
export const SHARED = ['title', 'description', 'tags', 'date'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Keeps the videos on the right in step with the shared fields on the left: a change of a shared field goes
 * into every video whose own value still equals the shared one before the change (so a video given its own
 * title keeps it). Choosing profiles assigns each video the profile at the same position (SPEC §2); a video
 * past the chosen ones keeps its own pick unless it was one of the previous positional assignments.
 */
export function useSharedFieldsCopy() {
  const { getValues, setValue, formState } = useFormContext();
  const shared = useWatch({ name: [...SHARED] }) as unknown[];
  const accounts = useWatch({ name: 'accounts' }) as SelectOption[] | undefined;
  const prev = useRef<unknown[] | null>(null);
  const prevAccounts = useRef<number[] | null>(null);
  const opts = { shouldDirty: true, shouldValidate: formState.isSubmitted };

  useEffect(() => {
    const before = prev.current;
    prev.current = shared;
    if (!before) return;
    const videos = (getValues('video') ?? []) as Record<string, unknown>[];
    SHARED.forEach((name, k) => {
      if (same(before[k], shared[k])) return;
      videos.forEach((v, i) => {
        if (same(v[name], before[k])) setValue(`video.${i}.${name}`, shared[k], opts);
      });
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [JSON.stringify(shared)]);

  useEffect(() => {
    const ids = (accounts ?? []).map((o) => Number(o.value));
    const before = prevAccounts.current;
    prevAccounts.current = ids;
    if (!before || same(before, ids)) return;
    const videos = (getValues('video') ?? []) as { account: number | null }[];
    videos.forEach((v, i) => {
      const next = i < ids.length ? ids[i]! : before.includes(v.account ?? -1) ? null : v.account;
      if (next !== v.account) setValue(`video.${i}.account`, next, opts);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [JSON.stringify(accounts?.map((o) => o.value))]);
}
