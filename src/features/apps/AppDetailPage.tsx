// Placeholder until the feature slice lands.
export default function AppDetailPage() {
  return <h1 className="h3">App</h1>;
}
