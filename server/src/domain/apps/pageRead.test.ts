import { PER_PAGE, pageRead } from './appDetails';

// A page past the middle of a newest-first list is read from the oldest end: the same rows,
// found in as few index steps as the first page.

describe('pageRead', () => {
  /** The page's rows (0 = newest) as the read finds them, newest first. */
  function rowsOf(total: number, page: number): number[] {
    const read = pageRead(total, page);
    const found: number[] = [];
    for (let i = read.offset; i < Math.min(read.offset + read.limit, total); i += 1) {
      // Position i in the read's order is row i (newest first) or row total-1-i (oldest first).
      found.push(read.direction === 'desc' ? i : total - 1 - i);
    }
    return read.direction === 'desc' ? found : found.reverse();
  }

  it.each([0, 1, 9, 10, 11, 25, 99, 1_000_001])('gives every page of %i rows its rows', (total) => {
    const last = Math.max(1, Math.ceil(total / PER_PAGE));
    const pages = [1, 2, 3, last - 2, last - 1, last, last + 1, Math.ceil(last / 2)];
    for (const page of pages.filter((p) => p >= 1)) {
      const expected: number[] = [];
      for (let i = (page - 1) * PER_PAGE; i < Math.min(page * PER_PAGE, total); i += 1) {
        expected.push(i);
      }
      expect({ page, rows: rowsOf(total, page) }).toEqual({ page, rows: expected });
    }
  });

  it('reads the last page of a million rows from the oldest end', () => {
    expect(pageRead(1_000_000, 100_000)).toEqual({ direction: 'asc', offset: 0, limit: 10 });
    expect(pageRead(1_000_005, 100_001)).toEqual({ direction: 'asc', offset: 0, limit: 5 });
    expect(pageRead(1_000_000, 1)).toEqual({ direction: 'desc', offset: 0, limit: 10 });
  });
});
