/** Which job kinds one process's runner takes, and how many of each it runs at once. */
export type RunnerPlan = { kinds: string[]; limits: Record<string, number> };

/**
 * The runner of a worker (or all-in-one) process from WORKER_KINDS and WORKER_CONCURRENCY over the catalogue's
 * kinds and their default limits: every kind unless some are named, each kind's limit its default unless named.
 * A name the catalogue does not know stops the start with an error naming the variable.
 */
export function planRunner(
  catalogue: readonly string[],
  defaults: Readonly<Record<string, number>>,
  asked: { kinds?: readonly string[]; concurrency?: Readonly<Record<string, number>> },
): RunnerPlan {
  const unknown = (variable: string, names: readonly string[]) => {
    const bad = names.filter((n) => !catalogue.includes(n));
    return bad.length
      ? [`${variable}: unknown job kind ${bad.map((n) => `"${n}"`).join(', ')} (known: ${catalogue.join(', ')})`]
      : [];
  };
  const problems = [
    ...unknown('WORKER_KINDS', asked.kinds ?? []),
    ...unknown('WORKER_CONCURRENCY', Object.keys(asked.concurrency ?? {})),
  ];
  if (problems.length) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const kinds = asked.kinds ? catalogue.filter((k) => asked.kinds!.includes(k)) : [...catalogue];
  const limits = Object.fromEntries(kinds.map((k) => [k, asked.concurrency?.[k] ?? defaults[k] ?? 1]));
  return { kinds, limits };
}
