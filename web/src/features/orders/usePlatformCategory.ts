import { useMemo, useState } from 'react';
import { platformsOf, useCategories } from '@/api/catalogue';

/** The catalogue's platform chips and category select together: a category belongs to one platform, so choosing a platform clears it. */
export function usePlatformCategory() {
  const [platform, setPlatform] = useState('');
  const [category, setCategory] = useState('');
  const categories = useCategories();
  const platforms = useMemo(() => platformsOf(categories.data), [categories.data]);
  const visibleCategories = useMemo(() => (categories.data ?? []).filter((c) => !platform || c.platform === platform), [categories.data, platform]);
  const choosePlatform = (next: string) => {
    setPlatform(next);
    setCategory('');
  };
  return { platform, choosePlatform, platforms, category, setCategory, visibleCategories, categoriesPending: categories.isPending };
}
