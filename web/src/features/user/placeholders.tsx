// Routes the spec lists with placeholder headings only.
function Placeholder({ title }: { title: string }) {
  return (
    <section>
      <h1 className="page-title">{title}</h1>
    </section>
  );
}

export const LogoutPage = () => <Placeholder title="Logout" />;
