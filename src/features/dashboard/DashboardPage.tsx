// Placeholder until the feature slice lands.
export default function DashboardPage() {
  return <h1 className="h3">Dashboard</h1>;
}
