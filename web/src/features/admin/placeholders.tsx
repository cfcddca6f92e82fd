// Admin screens whose content is not assigned yet: a heading per route.
function Placeholder({ title }: { title: string }) {
  return (
    <section className="space-y-2">
      <h1 className="page-title">{title}</h1>
      <p className="text-sm text-slate-600">This section is coming soon.</p>
    </section>
  );
}

export const AdminServicesPage = () => <Placeholder title="Services" />;
export const AdminTransactionsPage = () => <Placeholder title="Transactions" />;
export const AdminOrdersPage = () => <Placeholder title="Orders" />;
export const AdminSiteSettingsPage = () => <Placeholder title="Site Settings" />;
export const AdminPaymentSettingsPage = () => <Placeholder title="Payment Settings" />;
export const AdminAdministratorsPage = () => <Placeholder title="Administrators" />;
