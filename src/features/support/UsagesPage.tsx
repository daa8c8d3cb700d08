// Placeholder until the feature slice lands.
export default function UsagesPage() {
  return <h1 className="h3">Usages</h1>;
}
