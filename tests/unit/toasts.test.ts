import { DURATIONS, TOAST_LIMIT, errorsBeforeSuccess } from '../../src/common/ToastNotification';

type T = { id: string; type: 'success' | 'error' | 'blank' | 'loading' | 'custom'; visible: boolean };
const t = (id: string, type: T['type'], visible = true): T => ({ id, type, visible });

describe('toasts', () => {
  it('keep the SPEC §9 limits: top 20, error/blank/custom 4000 ms, success 2000 ms, loading without a time-out', () => {
    expect(TOAST_LIMIT).toBe(20);
    expect(DURATIONS).toEqual({ error: 4000, blank: 4000, custom: 4000, success: 2000, loading: Infinity });
  });

  it('a success dismisses the error toasts shown before it, not the ones after it (the list is newest first)', () => {
    expect(errorsBeforeSuccess([t('e3', 'error'), t('s', 'success'), t('e2', 'error'), t('e1', 'error')])).toEqual([
      'e2',
      'e1',
    ]);
  });

  it('leaves everything alone without a success, and skips toasts already leaving and other kinds', () => {
    expect(errorsBeforeSuccess([t('e2', 'error'), t('e1', 'error')])).toEqual([]);
    expect(errorsBeforeSuccess([t('s', 'success', false), t('e1', 'error')])).toEqual([]);
    expect(
      errorsBeforeSuccess([
        t('s', 'success'),
        t('l', 'loading'),
        t('b', 'blank'),
        t('gone', 'error', false),
        t('e', 'error'),
      ]),
    ).toEqual(['e']);
  });
});
