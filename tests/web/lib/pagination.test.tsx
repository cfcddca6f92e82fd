// The pager under every list: "Showing 21–40 of 312" with a page count; a list that counted no further than its
// cap (the ledger and orders of a busy shop) says "of 10,000+", shows no page count it does not know, lets the
// customer go on while pages come back full, and on the last page knows the total.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Pagination } from '@/components/Pagination';

const showing = () => screen.getByText(/^Showing/, { selector: 'p' }).textContent;
const pageCount = () => screen.getByRole('navigation', { name: 'Pagination' }).querySelector('span.text-sm')?.textContent;
const next = () => screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement;
const noop = () => {};

describe('Pagination', () => {
  it('shows an exact total with its page count, and no next page after the last', () => {
    render(<Pagination page={16} limit={20} total={312} onPage={noop} />);
    expect(showing()).toBe('Showing 301–312 of 312');
    expect(pageCount()).toBe('16 / 16');
    expect(next().disabled).toBe(true);
  });

  it('says "10,000+" for a capped total, with no page count it does not know', () => {
    render(<Pagination page={1} limit={20} total={10_000} totalCapped rowsShown={20} onPage={noop} />);
    expect(showing()).toBe('Showing 1–20 of 10,000+');
    expect(pageCount()).toBe('1');
    expect(next().disabled).toBe(false);
  });

  it('counts on past the cap as the pages go, and knows the total on the last page', () => {
    const { rerender } = render(<Pagination page={600} limit={20} total={10_000} totalCapped rowsShown={20} onPage={noop} />);
    expect(showing()).toBe('Showing 11,981–12,000 of 12,000+');
    expect(next().disabled).toBe(false);
    rerender(<Pagination page={601} limit={20} total={10_000} totalCapped rowsShown={7} onPage={noop} />);
    expect(showing()).toBe('Showing 12,001–12,007 of 12,007');
    expect(next().disabled).toBe(true);
  });
});
