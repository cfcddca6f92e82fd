// /admin/services: what the shop sells and at what price. Tabs (kept in the URL as ?tab=):
// services, categories, providers, the global pricing rules and the margin guard's warnings.
import { type ReactNode, useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/PageHeader';
import { Tabs, tabPanelProps } from '@/components/Tabs';
import { useCatalogueWarnings } from './api/get-warnings';
import { CategoriesTab } from './CategoriesTab';
import { PricingTab } from './PricingTab';
import { ProvidersTab } from './ProvidersTab';
import { ServicesTab } from './ServicesTab';
import { WarningsTab } from './WarningsTab';

type TabKey = 'services' | 'categories' | 'providers' | 'pricing' | 'warnings';
const PANELS: Record<TabKey, () => ReactNode> = {
  services: () => <ServicesTab />,
  categories: () => <CategoriesTab />,
  providers: () => <ProvidersTab />,
  pricing: () => <PricingTab />,
  warnings: () => <WarningsTab />,
};
const TAB_KEYS = Object.keys(PANELS) as TabKey[];

export default function AdminServicesPage() {
  const idBase = useId();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') ?? '';
  const tab: TabKey = (TAB_KEYS as string[]).includes(requested) ? (requested as TabKey) : 'services';
  const unread = useCatalogueWarnings({ page: '1', limit: '1', acknowledged: false }).data?.total ?? 0;
  const tabs = [
    { key: 'services', label: 'Services' },
    { key: 'categories', label: 'Categories' },
    { key: 'providers', label: 'Providers' },
    { key: 'pricing', label: 'Pricing' },
    { key: 'warnings', label: unread ? `Warnings (${unread})` : 'Warnings' },
  ] as const satisfies ReadonlyArray<{ key: TabKey; label: string }>;
  // A tab opens without the filters of another.
  const open = (key: TabKey) => setParams(key === 'services' ? {} : { tab: key }, { replace: true });

  return (
    <div className="space-y-5">
      <PageHeader title="Services" description="What the shop sells, from which provider, at what price." />
      <Tabs idBase={idBase} label="Catalogue" tabs={tabs} active={tab} onChange={open} />
      {TAB_KEYS.map((key) => (
        <div key={key} {...tabPanelProps(idBase, key)} hidden={tab !== key}>
          {tab === key ? PANELS[key]() : null}
        </div>
      ))}
    </div>
  );
}
