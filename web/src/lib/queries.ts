import { keepPreviousData } from '@tanstack/react-query';

/** A filtered, paged list's query: the rows on screen stay while the next page or filter loads, instead of the table flashing empty. */
export const pagedList = <O extends object>(options: O) => ({ ...options, placeholderData: keepPreviousData });
