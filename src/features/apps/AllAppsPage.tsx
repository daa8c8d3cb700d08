// Placeholder until the feature slice lands.
export default function AllAppsPage() {
  return <h1 className="h3">All Apps</h1>;
}
