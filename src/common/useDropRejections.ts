import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { toast } from 'react-hot-toast';
import type { FileRejection } from 'react-dropzone';

export type DropKind = 'photo' | 'video';

/**
 * SPEC §5 rejected-file toasts of a drop zone: 'Файл "{name}" має недопустимий формат. Файл має бути фото'
 * (or 'відео') when the kind is wrong, otherwise 'Файл "{name}" не прийнято: {reason}'. One toast per file.
 */
export function useDropRejections(kind: DropKind): (rejections: FileRejection[]) => void {
  const translate = useTranslate();
  return useCallback(
    (rejections) => {
      for (const { file, errors } of rejections) {
        const formatCase = errors.some((e) => e.code === 'file-invalid-type');
        toast.error(
          formatCase
            ? translate('kadr.backgrounds.bad_format', {
                name: file.name,
                kind: translate(`kadr.backgrounds.kind_${kind}`),
              })
            : translate('kadr.backgrounds.rejected', {
                name: file.name,
                reason: errors.map((e) => e.message).join('; '),
              }),
        );
      }
    },
    [kind, translate],
  );
}
