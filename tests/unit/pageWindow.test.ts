import { pageWindow } from '../../src/common/pageWindow';

const render = (cur: number, total: number) =>
  pageWindow(cur, total)
    .map((i) => (i.type === 'page' ? String(i.page) : `…${i.target}`))
    .join(' ');

describe('pageWindow', () => {
  it('is empty for one page or none', () => {
    expect(pageWindow(1, 0)).toEqual([]);
    expect(pageWindow(1, 1)).toEqual([]);
  });
  it('shows every page when they all fit', () => {
    expect(render(1, 2)).toBe('1 2');
    expect(render(3, 5)).toBe('1 2 3 4 5');
    expect(render(4, 7)).toBe('1 2 3 4 5 6 7');
  });
  it('shows first, last, two each side and ellipses that jump to the midpoint', () => {
    expect(render(10, 20)).toBe('1 …4 8 9 10 11 12 …16 20');
    expect(render(1, 20)).toBe('1 2 3 …12 20');
    expect(render(20, 20)).toBe('1 …9 18 19 20');
  });
  it('never repeats a page next to an edge', () => {
    expect(render(4, 20)).toBe('1 2 3 4 5 6 …13 20');
    expect(render(5, 20)).toBe('1 2 3 4 5 6 7 …14 20');
    expect(render(16, 20)).toBe('1 …7 14 15 16 17 18 19 20');
    expect(render(6, 20)).toBe('1 …2 4 5 6 7 8 …14 20');
  });
  it('clamps a current page outside the range', () => {
    expect(render(99, 3)).toBe('1 2 3');
  });
});
