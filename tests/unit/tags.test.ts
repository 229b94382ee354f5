import { addTags, normalizeTag, normalizeTags, TagSetSchema } from '../../src/contract/tags';

describe('tag normalising (shared by TagsInput and the server)', () => {
  it('lowercases and trims one tag', () => {
    expect(normalizeTag('  Sea ')).toBe('sea');
    expect(normalizeTag('СОНЦЕ')).toBe('сонце');
    expect(normalizeTag('   ')).toBe('');
  });

  it('lowercases, trims, de-duplicates and drops empties, keeping first-seen order', () => {
    expect(normalizeTags([' Sea ', 'SEA', 'sun', '', '  ', 'Сонце', 'сонце', 'Sun '])).toEqual(['sea', 'sun', 'сонце']);
    expect(normalizeTags([])).toEqual([]);
  });

  it('keeps numbers as text and ignores values that are not text', () => {
    expect(normalizeTags([42, null, undefined, { a: 1 }, ['x'], true, 'ok'])).toEqual(['42', 'ok']);
  });

  it('is idempotent', () => {
    const once = normalizeTags(['B', ' a', 'b', 'C ']);
    expect(normalizeTags(once)).toEqual(once);
  });

  it('adds typed text as tags: split on spaces and commas, no duplicates of existing ones', () => {
    expect(addTags(['sea'], 'SUN')).toEqual(['sea', 'sun']);
    expect(addTags(['sea'], '  Sea  ')).toEqual(['sea']);
    expect(addTags([], 'a, B  c,,a')).toEqual(['a', 'b', 'c']);
    expect(addTags(['x'], '   ')).toEqual(['x']);
  });

  it('the form schema applies the same rules and the SPEC §5 messages', () => {
    expect(TagSetSchema.parse({ name: ' Trip ', tags: ['A', 'a ', ''] })).toEqual({ name: 'Trip', tags: ['a'] });
    const r = TagSetSchema.safeParse({ name: ' ', tags: [' '] });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'kadr.validation.name_required'],
      ['tags', 'kadr.validation.min_one_tag'],
    ]);
  });
});
