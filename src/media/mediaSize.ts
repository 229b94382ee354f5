/** Bytes as the panel shows them: megabytes with one decimal below a gigabyte, else gigabytes with two (i18n keys). */
export function mediaSize(bytes: number, translate: (key: string, args: Record<string, string>) => string): string {
  const gb = bytes / 1024 ** 3;
  if (gb >= 1) return translate('kadr.media.gigabytes', { value: gb.toFixed(2) });
  return translate('kadr.media.megabytes', { value: (bytes / 1024 ** 2).toFixed(1) });
}
